// Bounded GET /api/artifacts/:ref requests per second vs a bare Fastify route returning the
// same bytes, same run (autocannon). The targets run in a child process so the load generator
// does not share their event loop. Run: pnpm --filter @artifact-refs/server bench
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { machine, table } from "@artifact-refs/tooling/bench/harness";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 16;

const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", fileURLToPath(new URL("./targets.ts", import.meta.url))], { stdio: ["ignore", "pipe", "inherit"] });
const info: { real: string; uncached: string; bare: string; path: string; token: string; bytes: number; artifactBytes: number } = await new Promise((resolve, reject) => {
  let out = "";
  child.stdout.on("data", (c) => {
    out += c;
    if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!));
  });
  child.on("exit", (code) => reject(new Error(`targets exited with ${code}`)));
});

async function run(base: string): Promise<{ rps: number; p99: number; mean: number; errors: number }> {
  const result = await autocannon({ url: `${base}${info.path}`, connections: CONNECTIONS, duration: DURATION_S, headers: { authorization: `Bearer ${info.token}` } });
  const errors = result.errors + result.non2xx;
  return { rps: result.requests.average, p99: result.latency.p99, mean: result.latency.average, errors };
}

const CASES = ["bare", "real", "uncached"] as const;
const samples: Record<string, Array<{ rps: number; p99: number; mean: number; errors: number }>> = { bare: [], real: [], uncached: [] };
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so warm-up and drift do not favour one case.
  for (const name of round % 2 === 0 ? CASES : [...CASES].reverse()) samples[name]!.push(await run(info[name]));
}
child.kill("SIGTERM");

const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const NAMES = {
  bare: "bare Fastify route, same bytes",
  real: "GET /api/artifacts/:ref (grep selector, auth, session check)",
  uncached: "same, selection cache off (read + verify + grep every time)",
};
const rows = CASES.map((name) => ({
  ratio: 0,
  name: NAMES[name],
  opsPerSec: avg(samples[name]!.map((s) => s.rps)),
  meanMs: avg(samples[name]!.map((s) => s.mean)),
  p99Ms: avg(samples[name]!.map((s) => s.p99)),
  error: samples[name]!.some((s) => s.errors > 0) ? `${samples[name]!.reduce((n, s) => n + s.errors, 0)} errors/non-2xx` : undefined,
}));
const base = rows[0]!.opsPerSec || 1;
for (const row of rows) row.ratio = row.opsPerSec / base;
console.log(`\n### Bounded fetch over HTTP (${info.bytes} response bytes from a ${info.artifactBytes}-byte artifact; ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION_S} s per case)\n`);
console.log(table(rows));
console.log(`\nratio real/bare: ${(rows[1]!.opsPerSec / base).toFixed(2)}× (target ≥ 0.70×)`);
console.log(`machine: ${machine()}`);
