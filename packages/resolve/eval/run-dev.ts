// Scores the resolver on the reference set(s): `pnpm --filter @artifact-refs/resolve eval [file.json ...]`.
// Default: ../shared/data/references/dev.json (relative to the repository) and the package's own
// held-out fixtures (test/fixtures/heldout*.json), which were written apart from the dev set.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { evaluateReferenceSet, formatEvaluation } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const args = process.argv.slice(2).filter((a) => a !== "--verbose");
const verbose = process.argv.includes("--verbose");
const files = args.length
  ? args
  : [resolve(repo, "../shared/data/references/dev.json"), resolve(here, "../test/fixtures/heldout.json"), resolve(here, "../test/fixtures/heldout-untuned.json")];
for (const file of files) {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    console.error(`cannot read ${file}: ${(error as Error).message}`);
    process.exitCode = 1;
    continue;
  }
  const report = evaluateReferenceSet(data);
  console.log(formatEvaluation(report, file.replace(`${resolve(repo, "..")}/`, "")));
  const wrong = report.outcomes.filter((o) => !o.correct);
  if (wrong.length) {
    console.log("\nmisses:");
    for (const o of wrong) console.log(`- ${o.id} [${o.kind}] ${JSON.stringify(o.text)} expected ${o.expected.join(",") || "nothing"}, got ${o.got.join(",") || "nothing"}${o.ambiguous ? " (ambiguous)" : ""}`);
  }
  if (verbose) for (const o of report.outcomes) console.log(`${o.correct ? "ok  " : "MISS"} ${o.id} ${o.kind} ${JSON.stringify(o.text)} -> ${o.got.join(",")}`);
  console.log("");
}
