// Scores the resolver on the reference set(s): `pnpm --filter @artifact-refs/resolve eval [file.json ...]`.
// Default: ../shared/data/references/dev.json and dev2.json (relative to the repository) and the
// package's own held-out fixtures (test/fixtures/heldout*.json, eval/heldout-r2.json), written apart from the dev sets,
// eval/dev-r3.json (round 3: written apart from this package's code, then tuned on) and eval/heldout-r3.json
// (round 3, written blind and frozen: held out like heldout-r2.json, misses by id and kind only) and
// eval/dev-r4.json (round 4: written blind by another helper, measured before any change made after it appeared, then tuned on),
// eval/dev-r5.json (round 5, the same way) and eval/heldout-r5.json (round 5, written blind and frozen like heldout-r3.json).
// With and without the optional semantic signal (a sentence-embedding model), side by side on the same sets:
// `pnpm --filter @artifact-refs/resolve-semantic eval` (the model lives in that package, a layer above this one).
// dev2's scenarios s11-s14 are kept out of tuning: they are scored and reported apart, by kind
// only, and their query texts are never printed (`--hold s11,s12` changes the list; `--hold none` drops it).
// `--why`: which step lost each miss (eval/why.ts); for held-out sets only the counts per step.
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ExecutionLike, evaluateReferenceSet, formatEvaluation, resolveReferences } from "../src/internal.js";
import { DEFAULT_SETS, FROZEN_SETS, HELD_DEV2 } from "./sets.js";
import { whyMissed } from "./why.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const USAGE = `usage: eval [--why] [--verbose] [--hold <ids>|none] [--help] [file.json ...]
  Scores the resolver on the reference sets (default: every set of eval/sets.ts).
  --why            which step lost each miss (held-out sets: counts per step only)
  --verbose        every tuned query with what it got
  --hold <ids>     dev2 scenarios kept out of tuning, comma-separated ("none": none held)
  --help           this text`;
// A bare \`--\` (pnpm passes it through from \`pnpm eval -- --why\`) is not a file: it is dropped.
const argv = process.argv.slice(2).filter((a) => a !== "--");
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
const holdAt = argv.indexOf("--hold");
if (holdAt >= 0 && (argv[holdAt + 1] === undefined || argv[holdAt + 1]?.startsWith("-"))) {
  console.error(`--hold needs a list of scenario ids or "none"\n${USAGE}`);
  process.exit(2);
}
const unknown = argv.find(
  (a, i) => a.startsWith("-") && !["--verbose", "--why", "--hold"].includes(a) && !(holdAt >= 0 && i === holdAt + 1),
);
if (unknown) {
  console.error(`unknown flag ${unknown}\n${USAGE}`);
  process.exit(2);
}
const verbose = argv.includes("--verbose");
const why = argv.includes("--why");
const hold = holdAt >= 0 ? (argv[holdAt + 1] === "none" ? [] : (argv[holdAt + 1] ?? "").split(",")) : HELD_DEV2;
const args = argv.filter(
  (a, i) => a !== "--verbose" && a !== "--why" && a !== "--hold" && !(holdAt >= 0 && i === holdAt + 1),
);
const files = args.length ? args : DEFAULT_SETS;
const frozen = FROZEN_SETS;

interface SetLike {
  scenarios: { id: string; executions?: ExecutionLike[]; queries?: { id: string; after: string }[] }[];
}

interface OutcomeLike {
  id: string;
  kind: string;
  correct: boolean;
}

// The worst scenario and the worst kind (by rate over every scored query of the set, none/ambiguous included),
// so a total never hides one bad scenario. Scenario = the outcome id up to its `q<n>` suffix.
function worstLines(outcomes: OutcomeLike[]): string {
  const worst = (key: (o: OutcomeLike) => string): string => {
    const groups = new Map<string, { ok: number; n: number }>();
    for (const o of outcomes) {
      const g = groups.get(key(o)) ?? { ok: 0, n: 0 };
      g.n++;
      if (o.correct) g.ok++;
      groups.set(key(o), g);
    }
    const sorted = [...groups].sort((a, b) => a[1].ok / a[1].n - b[1].ok / b[1].n || b[1].n - a[1].n);
    const [name, g] = sorted[0] ?? ["-", { ok: 0, n: 0 }];
    return `${name} ${g.ok}/${g.n}`;
  };
  return `- worst scenario: ${worst((o) => o.id.replace(/q\d+$/, ""))}; worst kind: ${worst((o) => o.kind)}`;
}

function report(data: SetLike, title: string, showTexts: boolean): void {
  const r = evaluateReferenceSet(data);
  console.log(formatEvaluation(r, title));
  console.log(worstLines(r.outcomes));
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
  if (why && wrong.length) {
    const counts = new Map<string, number>();
    for (const o of wrong) {
      const label = o.kind === "none" ? "invented a reference" : stepOf(data, o);
      counts.set(label, (counts.get(label) ?? 0) + 1);
      if (showTexts) console.log(`  ${o.id}: ${label}`);
    }
    console.log("\nmisses by step:");
    for (const [label, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`- ${label}: ${n}`);
  }
  if (verbose && showTexts)
    for (const o of r.outcomes)
      console.log(`${o.correct ? "ok  " : "MISS"} ${o.id} ${o.kind} ${JSON.stringify(o.text)} -> ${o.got.join(",")}`);
  console.log("");
}

/** The step that lost a miss (eval/why.ts), from the query's session up to the record it follows. */
function stepOf(data: SetLike, o: { id: string; text: string; expected: string[] }): string {
  for (const sc of data.scenarios) {
    const q = sc.queries?.find((x) => x.id === o.id);
    if (!q || !sc.executions) continue;
    const xs = sc.executions.slice(0, sc.executions.findIndex((e) => e.id === q.after) + 1);
    const r = resolveReferences(o.text, xs);
    return whyMissed(
      o.text,
      xs,
      o.expected,
      r.candidates.map((c) => c.id),
      r.candidates.map((c) => c.score),
    );
  }
  return "unknown";
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
    report(data, title, !frozen.has(basename(file)));
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
