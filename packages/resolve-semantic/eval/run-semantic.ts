// Scores reference resolution with and without the semantic signal, side by side, on the sets of
// packages/resolve/eval/run-dev.ts: `pnpm --filter @artifact-refs/resolve-semantic eval [file.json ...]`.
// Held out (never tuned on, misses by id and kind only, texts never printed): dev2 s11-s14, heldout-r2, heldout-r3, heldout-r5.
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ExecutionLike, type Resolution, evaluateReferenceSet, resolveReferences } from "@artifact-refs/resolve";
import { DEFAULT_SETS, FROZEN_SETS, HELD_DEV2 } from "../../resolve/eval/sets.js";
import { SemanticResolver } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../../..");
const FROZEN = FROZEN_SETS;
// --tuned: the tuned sets only (thresholds are fixed there before any held-out figure is looked at).
const tunedOnly = process.argv.includes("--tuned");
const args = process.argv.slice(2).filter((a) => a !== "--tuned");
const files = args.length ? args : DEFAULT_SETS;

interface Scenario {
  id: string;
  executions: ExecutionLike[];
  queries: { id: string; after: string; text: string }[];
}
interface SetLike {
  version: number;
  scenarios: Scenario[];
}

const t0 = performance.now();
const semantic = await SemanticResolver.load();
console.log(`model loaded in ${(performance.now() - t0).toFixed(0)} ms`);

/** Queries of the current set the semantic signal answered (reason `semantic: …`). */
let fired = 0;

async function withModel(data: SetLike): Promise<(text: string, executions: ExecutionLike[]) => Resolution> {
  const answers = new Map<string, Resolution>();
  fired = 0;
  for (const s of data.scenarios)
    for (const q of s.queries) {
      const at = s.executions.findIndex((e) => e.id === q.after);
      const slice = s.executions.slice(0, at + 1);
      const r = await semantic.resolve(q.text, slice);
      if (r.candidates[0]?.reasons[0]?.startsWith("semantic:")) fired++;
      answers.set(`${slice.length}\u0000${s.executions[0]?.id}\u0000${q.text}`, r);
    }
  return (text, executions) =>
    answers.get(`${executions.length}\u0000${executions[0]?.id}\u0000${text}`) ?? resolveReferences(text, executions);
}

async function row(data: SetLike, title: string, held: boolean): Promise<void> {
  const plain = evaluateReferenceSet(data);
  const sem = evaluateReferenceSet(data, await withModel(data));
  const f = (r: typeof plain) =>
    `${r.top1.correct}/${r.top1.total} (${((100 * r.top1.correct) / (r.top1.total || 1)).toFixed(1)}%), none ${r.none.correct}/${r.none.total}, ambiguous ${r.ambiguous.correct}/${r.ambiguous.total}`;
  console.log(`### ${title}${held ? " (HELD OUT)" : ""}`);
  console.log(`- without the model: ${f(plain)}`);
  console.log(`- with the model:    ${f(sem)}`);
  const rel = (r: typeof plain) => `${r.byKind.relevance?.correct ?? 0}/${r.byKind.relevance?.total ?? 0}`;
  console.log(`- relevance: ${rel(plain)} -> ${rel(sem)}; answered by the semantic signal: ${fired}`);
  const changed = sem.outcomes.filter((o, i) => o.correct !== plain.outcomes[i]?.correct);
  for (const o of changed)
    console.log(`  ${o.correct ? "gained" : "lost"} ${o.id} [${o.kind}]${held ? "" : ` ${JSON.stringify(o.text)}`}`);
  const misses = sem.outcomes.filter((o) => !o.correct);
  if (held && misses.length)
    console.log(`- misses with the model: ${misses.map((o) => `${o.id} [${o.kind}]`).join(", ")}`);
  // A miss with no candidate is one the semantic signal could have answered; the others are wrong answers it never overrides.
  const empty = misses.filter((o) => o.kind !== "none" && o.got.length === 0).length;
  console.log(`- misses left without a candidate: ${empty} of ${misses.length}`);
  console.log("");
}

for (const file of files) {
  const data = JSON.parse(readFileSync(file, "utf8")) as SetLike;
  const title = file.replace(`${resolve(repo, "..")}/`, "");
  if (basename(file) === "dev2.json") {
    await row(
      { ...data, scenarios: data.scenarios.filter((s) => !HELD_DEV2.includes(s.id)) },
      `${title} without s11-s14`,
      false,
    );
    if (!tunedOnly)
      await row(
        { ...data, scenarios: data.scenarios.filter((s) => HELD_DEV2.includes(s.id)) },
        `${title}: s11-s14 only`,
        true,
      );
  } else if (!(tunedOnly && FROZEN.has(basename(file)))) await row(data, title, FROZEN.has(basename(file)));
}
