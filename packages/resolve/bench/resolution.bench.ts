// Reference resolution and recall on long sessions: latency at 1k / 10k / 100k execution
// records, and the recall scaling ratio time(100k) / time(1k) (target ≤ 3).
import { RecallIndex, resolveReferences } from "../src/index.js";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";
import { executions } from "./fixtures.js";

console.log(`machine: ${machine()}`);
const sizes = [1_000, 10_000, 100_000] as const;
const sessions = Object.fromEntries(sizes.map((n) => [n, executions(n)])) as Record<
  (typeof sizes)[number],
  ReturnType<typeof executions>
>;

// Resolution over 10k records; the first call indexes the records (cached per record object after that).
const ten = sessions[10_000];
const tCold = performance.now();
resolveReferences("summarize what I just loaded", ten);
const cold = performance.now() - tCold;
const tSecond = performance.now();
resolveReferences("what did the billing query return?", ten);
const second = performance.now() - tSecond;
const queries = [
  "summarize what I just loaded",
  "what did the billing query return?",
  "the orders3.ts file before the last one",
  "what went wrong with the last test run?",
  "write a haiku about spring",
];
await compare({
  title: "resolveReferences over 10,000 execution records (indexes cached)",
  cases: Object.fromEntries(queries.map((q) => [`"${q}"`, () => resolveReferences(q, ten)])),
  time: 2_000,
});
console.log(
  `\nfirst call over 10,000 records (indexing them): ${cold.toFixed(0)} ms; the second call: ${second.toFixed(0)} ms`,
);

// A session turn: one record appended to the same array, then a resolution (the session index,
// if any, is extended by the new record instead of rebuilt). The copy grows by one per call.
const growing = [...ten];
let turn = 0;
await compare({
  title: "a turn on a 10,000-record session: push one record, then resolve",
  cases: {
    'push + "what did the billing query return?"': () => {
      turn++;
      growing.push({
        id: `t${turn}`,
        tool_name: "sql_query",
        tool_args: { query: `SELECT * FROM billing WHERE id = ${turn}` },
        summary: `${turn} rows`,
        result_type: "success",
      });
      return resolveReferences("what did the billing query return?", growing);
    },
  },
  time: 2_000,
});

// Recall: a RecallIndex per session, built once; one recall per turn.
const indexes = Object.fromEntries(sizes.map((n) => [n, new RecallIndex().addAll(sessions[n])])) as Record<
  (typeof sizes)[number],
  RecallIndex
>;
const chars4 = (t: string) => Math.ceil(t.length / 4);
const recallOptions = {
  query: "why did the billing invoice tests fail?",
  explicitIds: ["e17"],
  budgetTokens: 800,
  maxItems: 10,
  countTokens: chars4,
};
const rows = await compare({
  title: "recall (top-10 in 800 tokens) by session size",
  baseline: "recall, 1,000 items",
  cases: Object.fromEntries(
    sizes.map((n) => [`recall, ${n.toLocaleString("en-US")} items`, () => indexes[n].recall(recallOptions)]),
  ),
  time: 2_000,
});
const mean = (n: number) =>
  (rows as Array<{ name: string; meanMs: number }>).find(
    (r) => r.name === `recall, ${n.toLocaleString("en-US")} items`,
  )!.meanMs;
console.log(`\ntime(100k) / time(1k) for recall: ${(mean(100_000) / mean(1_000)).toFixed(2)} (target ≤ 3)`);
const tBuild = performance.now();
new RecallIndex().addAll(sessions[100_000]);
console.log(
  `building a RecallIndex of 100,000 items: ${(performance.now() - tBuild).toFixed(0)} ms (once per session; add() is O(1) per item)`,
);
