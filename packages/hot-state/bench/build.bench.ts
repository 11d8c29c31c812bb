// Hot-state build with 1k, 10k and 100k index candidates: the build must stay close to
// flat (time(100k) / time(1k) ≤ 3): one bounded-heap pass picks the index, and tokens are
// counted only on the small final state.
import { createHash } from "node:crypto";
import { clearCountCache } from "@artifact-refs/budget";
import { buildHotState, createDispatcher, type IndexCandidate } from "@artifact-refs/hot-state";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";

const TYPES = ["repo", "doc", "code", "log", "data", "plan", "result", "tool_output"] as const;
function makeCandidates(n: number): IndexCandidate[] {
  return Array.from({ length: n }, (_, i) => ({
    artifact_id: createHash("sha256").update(`artifact ${i}`).digest("hex"),
    type: TYPES[i % TYPES.length]!,
    label: `src/module_${i}/file_${i % 97}.py`,
    summary: `Output of step ${i}: ${i % 3 === 0 ? "pytest run, 3 failed" : "grep results for the failing symbol"}`,
    ...(i === 7 || i === 500 ? { pinned: true } : {}), // the same two pins at every size, so the built states are alike
    ...(i % 3 === 0 ? { last_referenced: i } : {}),
    created: i,
  }));
}

const state = {
  session_id: "bench-session",
  run_id: "run-1",
  objective: "Fix the failing test in the requests session handling without changing the public API",
  constraints: ["do not touch tests", "keep Python 2 compatibility"],
  accepted_decisions: ["patch prepare_content_length", "add a regression test"],
  open_questions: ["does the adapter set Content-Length too?"],
  last_successful_step: "reproduced the bug with a minimal script",
  risk_level: "low" as const,
};

const sizes = [1_000, 10_000, 100_000];
const sets = Object.fromEntries(sizes.map((n) => [n, makeCandidates(n)]));

console.log(`machine: ${machine()}`);

function dispatcherWith(n: number) {
  const d = createDispatcher({ session_id: "bench", state });
  for (const c of sets[n]!)
    d.writer.addArtifact(
      { artifact_id: c.artifact_id, type: c.type, label: c.label!, summary: c.summary! },
      c.pinned ? { pinned: true } : {},
    );
  for (const c of sets[n]!)
    if (c.last_referenced !== undefined && c.last_referenced % 1000 === 0) d.writer.reference(c.artifact_id);
  return d;
}
const dispatchers = Object.fromEntries(sizes.map((n) => [n, dispatcherWith(n)]));
const label = (n: number) => `${(n / 1000).toFixed(0)}k candidates`;

function ratios(title: string, rows: { name: string; meanMs: number }[]) {
  const t = (n: number) => rows.find((r) => r.name === label(n))!.meanMs;
  const line = `${title}: time(10k)/time(1k) = ${(t(10_000) / t(1_000)).toFixed(2)}, time(100k)/time(1k) = ${(t(100_000) / t(1_000)).toFixed(2)}`;
  console.log(`\n${line}`);
  return line;
}

const summary: string[] = [];
for (const impl of ["tiktoken", "gpt-tokenizer"] as const) {
  for (const cache of ["warm", "cold"] as const) {
    const dispatch: Record<string, () => void> = {};
    const pure: Record<string, () => void> = {};
    for (const n of sizes) {
      const candidates = sets[n]!;
      const d = dispatchers[n]!;
      const opts = { impl };
      dispatch[label(n)] = () => {
        if (cache === "cold") clearCountCache();
        // build through the writer's options (impl is fixed per dispatcher: rebuild with the pure path's options below)
        void d.writer.build();
      };
      pure[label(n)] = () => {
        if (cache === "cold") clearCountCache();
        void buildHotState({ state, candidates }, opts);
      };
    }
    if (impl === "tiktoken") {
      const rows = await compare({
        title: `dispatcher build (writer.build), count cache ${cache}, tiktoken`,
        cases: dispatch,
        time: 1500,
      });
      summary.push(ratios(`dispatcher build, cache ${cache}, tiktoken`, rows));
    }
    const rows = await compare({
      title: `buildHotState over an array of candidates, count cache ${cache}, ${impl}`,
      cases: pure,
      time: 1500,
    });
    summary.push(ratios(`buildHotState (array), cache ${cache}, ${impl}`, rows));
  }
}
console.log(`\n### Ratios\n\n${summary.map((l) => `- ${l}`).join("\n")}`);
