// Cost of the semantic signal: model load, one message, batches of execution texts (CPU and wall time).
// Run: `node --conditions=@artifact-refs/source --import tsx bench/embed.bench.ts` in this folder.
import { cpus, loadavg } from "node:os";
import { loadEmbedder } from "../src/index.js";

const words =
  "deploy staging cluster terraform plan billing export csv retry logic payment service grep logs error timeout database migration".split(
    " ",
  );
const texts = (n: number, len: number) =>
  Array.from(
    { length: n },
    (_, i) => `${Array.from({ length: len }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ")} ${i}`,
  );
async function timed<T>(f: () => Promise<T>): Promise<{ wall: number; cpu: number; value: T }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000, value };
}

console.log(
  `machine: ${cpus().length} cores (${cpus()[0]?.model}), load ${loadavg()[0]!.toFixed(1)}, node ${process.version}`,
);
const load = await timed(loadEmbedder);
console.log(`load: wall ${load.wall.toFixed(0)} ms, cpu ${load.cpu.toFixed(0)} ms`);
const model = load.value;
await model.embed(texts(4, 8));
for (const [n, len] of [
  [1, 10],
  [16, 12],
  [64, 12],
  [64, 40],
  [128, 12],
] as const) {
  const runs: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < 3; r++) runs.push(await timed(() => model.embed(texts(n, len))));
  const med = (k: "wall" | "cpu") => runs.map((x) => x[k]).sort((a, b) => a - b)[1]!;
  console.log(`${n} texts of ${len} words: median wall ${med("wall").toFixed(0)} ms, cpu ${med("cpu").toFixed(0)} ms`);
}
