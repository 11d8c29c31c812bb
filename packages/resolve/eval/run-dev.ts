// Scores the resolver on the reference set(s): `pnpm --filter @artifact-refs/resolve eval [file.json ...]`.
// Default: ../shared/data/references/dev.json and dev2.json (relative to the repository) and the
// package's own held-out fixtures (test/fixtures/heldout*.json), which were written apart from the dev sets.
// dev2's scenarios s11-s14 are kept out of tuning: they are scored and reported apart, by kind
// only, and their query texts are never printed (`--hold s11,s12` changes the list; `--hold none` drops it).
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { evaluateReferenceSet, formatEvaluation } from "../src/internal.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const argv = process.argv.slice(2);
const verbose = argv.includes("--verbose");
const holdAt = argv.indexOf("--hold");
const hold =
  holdAt >= 0 ? (argv[holdAt + 1] === "none" ? [] : (argv[holdAt + 1] ?? "").split(",")) : ["s11", "s12", "s13", "s14"];
const args = argv.filter((a, i) => a !== "--verbose" && a !== "--hold" && !(holdAt >= 0 && i === holdAt + 1));
const shared = resolve(repo, "../shared/data/references");
const files = args.length
  ? args
  : [
      resolve(shared, "dev.json"),
      resolve(shared, "dev2.json"),
      resolve(here, "../test/fixtures/heldout.json"),
      resolve(here, "../test/fixtures/heldout-untuned.json"),
    ];

interface SetLike {
  scenarios: { id: string }[];
}

function report(data: SetLike, title: string, showTexts: boolean): void {
  const r = evaluateReferenceSet(data);
  console.log(formatEvaluation(r, title));
  const wrong = r.outcomes.filter((o) => !o.correct);
  if (wrong.length) {
    console.log("\nmisses:");
    for (const o of wrong) {
      if (showTexts)
        console.log(
          `- ${o.id} [${o.kind}] ${JSON.stringify(o.text)} expected ${o.expected.join(",") || "nothing"}, got ${o.got.join(",") || "nothing"}${o.ambiguous ? " (ambiguous)" : ""}`,
        );
      else console.log(`- ${o.id} [${o.kind}] (text not shown: held out)`);
    }
  }
  if (verbose && showTexts)
    for (const o of r.outcomes)
      console.log(`${o.correct ? "ok  " : "MISS"} ${o.id} ${o.kind} ${JSON.stringify(o.text)} -> ${o.got.join(",")}`);
  console.log("");
}

for (const file of files) {
  let data: SetLike;
  try {
    data = JSON.parse(readFileSync(file, "utf8")) as SetLike;
  } catch (error) {
    console.error(`cannot read ${file}: ${(error as Error).message}`);
    process.exitCode = 1;
    continue;
  }
  const title = file.replace(`${resolve(repo, "..")}/`, "");
  const held = basename(file) === "dev2.json" ? hold : [];
  if (!held.length || !Array.isArray(data.scenarios)) {
    report(data, title, true);
    continue;
  }
  report(data, `${title} (all ${data.scenarios.length} scenarios)`, false);
  report(
    { ...data, scenarios: data.scenarios.filter((s) => !held.includes(s.id)) },
    `${title} without ${held.join(", ")} (tuned on)`,
    true,
  );
  report(
    { ...data, scenarios: data.scenarios.filter((s) => held.includes(s.id)) },
    `${title}: ${held.join(", ")} only (held out, never tuned on)`,
    false,
  );
}
