// Latency the proxy adds to a small tool call: the official client calls the fake upstream's
// `small` tool directly (stdio) and through `aref-mcp --wrap` (stdio → stdio), interleaved in the
// same run so both see the same machine load. Needs the built bin (pnpm --filter @artifact-refs/mcp... build).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const FAKE = fileURLToPath(new URL("../test/fixtures/fake-upstream.mjs", import.meta.url));
const CALLS = Number(process.env.CALLS ?? 1000);
const WARMUP = 200;
if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (pnpm --filter @artifact-refs/mcp... build)`);

async function connect(args: string[]): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" }));
  return client;
}
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const dir = mkdtempSync(join(tmpdir(), "aref-proxy-bench-"));
const direct = await connect([FAKE]);
const proxied = await connect([BIN, "--store", dir, "--session", "bench", "--wrap", "--", process.execPath, FAKE]);
const times = { direct: [] as number[], proxied: [] as number[] };
for (let i = 0; i < WARMUP + CALLS; i++) {
  for (const [name, client] of (i % 2 === 0
    ? [
        ["direct", direct],
        ["proxied", proxied],
      ]
    : [
        ["proxied", proxied],
        ["direct", direct],
      ]) as Array<["direct" | "proxied", Client]>) {
    const t = performance.now();
    await client.callTool({ name: "small", arguments: { n: i } });
    if (i >= WARMUP) times[name].push(performance.now() - t);
  }
}
await direct.close();
await proxied.close();
rmSync(dir, { recursive: true, force: true });

console.log(`small tool call, ${CALLS} calls each after ${WARMUP} warm-up, interleaved (ms)`);
console.log("| path | p50 | p90 | p99 | mean |");
console.log("|---|---:|---:|---:|---:|");
for (const [name, xs] of Object.entries(times)) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `| ${name} | ${pct(xs, 50).toFixed(3)} | ${pct(xs, 90).toFixed(3)} | ${pct(xs, 99).toFixed(3)} | ${mean.toFixed(3)} |`,
  );
}
console.log(
  `added by the proxy at p50: ${(pct(times.proxied, 50) - pct(times.direct, 50)).toFixed(3)} ms (ratio ${(pct(times.proxied, 50) / pct(times.direct, 50)).toFixed(2)}×)`,
);
