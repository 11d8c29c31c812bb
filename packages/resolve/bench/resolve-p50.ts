// p50 of a resolution per session size, after the session index is built (a first call builds it,
// three warm-up rounds follow), and the scaling ratio time(100k) / time(1k), all in one run:
// `node --expose-gc --conditions=@artifact-refs/source --import tsx bench/resolve-p50.ts [sizes]`.
// Two ways in: resolveReferences over a plain array (each call compares every record with the last
// call's, to see records changed in place) and a ResolutionSession (appended to through add()).
import { ResolutionSession, resolveReferences } from "../src/index.js";
import { executions } from "./fixtures.js";

const queries = [
  "summarize what I just loaded",
  "what did the billing query return?",
  "the orders3.ts file before the last one",
  "what went wrong with the last test run?",
  "write a haiku about spring",
];
const sizes = (process.argv[2] ?? "1000,10000,100000").split(",").map(Number);
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function measure(resolve: (q: string) => unknown): { first: number; p50: number; cpu: number; per: string } {
  const t = performance.now();
  resolve(queries[0]!);
  const first = performance.now() - t;
  // Settle the heap the index build left (run with --expose-gc), so the calls do not pay for it.
  (globalThis as { gc?: () => void }).gc?.();
  for (let warm = 0; warm < 3; warm++) for (const q of queries) resolve(q);
  const times: number[] = [];
  // CPU time of the process per call (user + system, ms): on a machine shared with other jobs the
  // wall time also counts the time this process waited for a core; the CPU time does not.
  const cpus: number[] = [];
  for (let round = 0; round < 11; round++) {
    for (const q of queries) {
      const c = process.cpuUsage();
      const s = performance.now();
      resolve(q);
      times.push(performance.now() - s);
      const d = process.cpuUsage(c);
      cpus.push((d.user + d.system) / 1000);
    }
  }
  const perOf = (xs: number[]) =>
    queries.map((_, i) => p50(xs.filter((_, k) => k % queries.length === i)).toFixed(2)).join(" / ");
  const per = `wall ${perOf(times)}; CPU ${perOf(cpus)}`;
  return { first, p50: p50(times), cpu: p50(cpus), per };
}

const figures: Record<string, Record<number, number>> = { array: {}, session: {} };
const cpuFigures: Record<string, Record<number, number>> = { array: {}, session: {} };
for (const n of sizes) {
  const records = executions(n);
  const a = measure((q) => resolveReferences(q, records));
  const session = new ResolutionSession(executions(n));
  const s = measure((q) => session.resolve(q));
  figures.array![n] = a.p50;
  figures.session![n] = s.p50;
  cpuFigures.array![n] = a.cpu;
  cpuFigures.session![n] = s.cpu;
  console.log(
    `${n.toLocaleString("en-US")} records, plain array:       first call ${a.first.toFixed(0)} ms, p50 ${a.p50.toFixed(2)} ms, CPU p50 ${a.cpu.toFixed(2)} ms (per message: ${a.per})`,
  );
  console.log(
    `${n.toLocaleString("en-US")} records, ResolutionSession: first call ${s.first.toFixed(0)} ms, p50 ${s.p50.toFixed(2)} ms, CPU p50 ${s.cpu.toFixed(2)} ms (per message: ${s.per})`,
  );
}
for (const [way, f] of Object.entries(figures)) {
  const c = cpuFigures[way]!;
  if (f[1000] && f[100000])
    console.log(
      `${way}: time(100k) / time(1k) = ${(f[100000] / f[1000]).toFixed(2)} wall, ${(c[100000]! / c[1000]!).toFixed(2)} CPU (target ≤ 3)`,
    );
}
