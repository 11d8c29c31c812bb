// Bounded GET /api/artifacts/:ref requests per second vs a bare Fastify route returning the
// same bytes, same run (autocannon). The targets run in a child process so the load generator
// does not share their event loop. Run: pnpm --filter @artifact-refs/server bench
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { machine, table } from "@artifact-refs/tooling/bench/harness";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 16;
const CASES = ["bare", "real", "strict", "fs", "fsStrict", "uncached", "distinct"] as const;

const child = spawn(
  process.execPath,
  ["--conditions=@artifact-refs/source", "--import", "tsx", fileURLToPath(new URL("./targets.ts", import.meta.url))],
  { stdio: ["ignore", "pipe", "inherit", "ipc"] },
);
const info: Record<(typeof CASES)[number], string> & {
  path: string;
  distinctPaths: string[];
  floorCpuUs: number;
  distinctArtifactBytes: number;
  distinctChunks: number;
  token: string;
  bytes: number;
  artifactBytes: number;
} = await new Promise((resolve, reject) => {
  let out = "";
  child.stdout!.on("data", (c) => {
    out += c;
    if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!));
  });
  child.on("exit", (code) => reject(new Error(`targets exited with ${code}`)));
});

/** CPU time (µs) the target process has used so far. */
function targetCpu(): Promise<number> {
  return new Promise((resolve) => {
    child.once("message", (m: { cpu: number }) => resolve(m.cpu));
    child.send("cpu");
  });
}

interface Sample {
  rps: number;
  p99: number;
  mean: number;
  errors: number;
  /** Server CPU per request (µs): independent of whether the load generator or the server saturates first. */
  cpuPerRequest: number;
}

async function run(base: string, paths?: string[]): Promise<Sample> {
  const before = await targetCpu();
  const result = await autocannon({
    url: `${base}${info.path}`,
    // Each connection cycles through the paths in order: a different selection on every request.
    ...(paths ? { requests: paths.map((path) => ({ method: "GET" as const, path })) } : {}),
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${info.token}` },
  });
  const cpu = (await targetCpu()) - before;
  const errors = result.errors + result.non2xx;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    mean: result.latency.average,
    errors,
    cpuPerRequest: cpu / Math.max(1, result.requests.total),
  };
}

const samples: Record<string, Sample[]> = Object.fromEntries(CASES.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so warm-up and drift do not favour one case.
  for (const name of round % 2 === 0 ? CASES : [...CASES].reverse())
    samples[name]!.push(await run(info[name], name === "distinct" ? info.distinctPaths : undefined));
}
child.kill("SIGTERM");

const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const NAMES: Record<(typeof CASES)[number], string> = {
  bare: "bare Fastify route, same bytes",
  real: "GET /api/artifacts/:ref (grep selector, auth, session check), memory store",
  strict: "same, access checked in the store on every request (accessCacheMs 0)",
  fs: "same route on an fs store",
  fsStrict: "fs store, access checked on every request (accessCacheMs 0)",
  uncached: "memory store, selection cache off (read + verify + grep every time)",
  distinct: "20 different grep/range selections over one chunked artifact, fs store, selection cache off",
};
const rows = CASES.map((name) => ({
  ratio: 0,
  name: NAMES[name],
  opsPerSec: avg(samples[name]!.map((s) => s.rps)),
  meanMs: avg(samples[name]!.map((s) => s.mean)),
  p99Ms: avg(samples[name]!.map((s) => s.p99)),
  error: samples[name]!.some((s) => s.errors > 0)
    ? `${samples[name]!.reduce((n, s) => n + s.errors, 0)} errors/non-2xx`
    : undefined,
}));
const base = rows[0]!.opsPerSec || 1;
for (const row of rows) row.ratio = row.opsPerSec / base;
console.log(
  `\n### Bounded fetch over HTTP (${info.bytes} response bytes from a ${info.artifactBytes}-byte artifact; ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION_S} s per case)\n`,
);
console.log(table(rows));
console.log(`\nratio real/bare: ${(rows[1]!.opsPerSec / base).toFixed(2)}× (target ≥ 0.70×)`);
// When the load generator saturates before the server, req/s hides the server's cost: CPU per request shows it.
const cpu = CASES.map((name) => avg(samples[name]!.map((s) => s.cpuPerRequest)));
console.log("\n| case | server CPU µs / request | bare / case |\n|---|---:|---:|");
for (const [i, name] of CASES.entries())
  console.log(`| ${NAMES[name]} | ${cpu[i]!.toFixed(1)} | ${(cpu[0]! / cpu[i]!).toFixed(2)}× |`);
const distinctCpu = cpu[CASES.indexOf("distinct")]!;
console.log(
  `\n### Distinct selections (${info.distinctPaths.length} grep/range selectors cycled over one ${info.distinctArtifactBytes}-byte artifact in ${info.distinctChunks} chunks)\n`,
);
console.log("| case | CPU µs / selection | vs floor |\n|---|---:|---:|");
console.log(
  `| floor: the same selections on the decoded text + receipt JSON (same process) | ${info.floorCpuUs.toFixed(1)} | 1.00× |`,
);
console.log(
  `| server: GET with those selectors (HTTP, auth, store, chunk cache) | ${distinctCpu.toFixed(1)} | ${(distinctCpu / info.floorCpuUs).toFixed(2)}× (target ≤ 2×) |`,
);
console.log(`machine: ${machine()}; load ${loadavg()[0]!.toFixed(1)}`);
