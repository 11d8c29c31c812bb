// p50 of resolveReferences per session size, after the session index is built (one warm-up call),
// and the scaling ratio time(100k) / time(1k): `node --conditions=@artifact-refs/source --import tsx bench/resolve-p50.ts`.
import { resolveReferences } from "../src/index.js";
import { executions } from "./fixtures.js";

const queries = ["summarize what I just loaded", "what did the billing query return?", "the orders3.ts file before the last one", "what went wrong with the last test run?", "write a haiku about spring"];
const sizes = (process.argv[2] ?? "1000,10000,100000").split(",").map(Number);
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const result: Record<number, number> = {};
for (const n of sizes) {
  const session = executions(n);
  const t = performance.now();
  resolveReferences("summarize what I just loaded", session);
  const build = performance.now() - t;
  const times: number[] = [];
  for (let round = 0; round < 7; round++) {
    for (const q of queries) {
      const s = performance.now();
      resolveReferences(q, session);
      times.push(performance.now() - s);
    }
  }
  result[n] = p50(times);
  const per = queries.map((q, i) => `${p50(times.filter((_, k) => k % queries.length === i)).toFixed(1)}`).join(" / ");
  console.log(`${n.toLocaleString("en-US")} records: first call (builds the index) ${build.toFixed(0)} ms; p50 ${result[n]!.toFixed(1)} ms over ${times.length} calls (per message: ${per})`);
}
if (result[1000] && result[100000]) console.log(`time(100k) / time(1k) = ${(result[100000] / result[1000]).toFixed(2)} (target ≤ 3)`);
