// Bench harness shared by every package's `pnpm bench`: runs cases side by side in
// one process with tinybench and prints a markdown table with ratios to a baseline,
// since these machines are noisy and only same-run ratios are comparable.
import os from "node:os";
import { Bench } from "tinybench";

/** One line describing the machine, for docs/BENCHMARKS.md. */
export function machine() {
  const cpu = os.cpus()[0]?.model ?? "unknown cpu";
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/**
 * Runs `cases` ({ name: async fn }) for `time` ms each and returns rows
 * { name, opsPerSec, meanMs, p99Ms, ratio } where ratio = opsPerSec / baseline's.
 */
export async function compare({ title, cases, baseline, time = 1_000, warmupTime = 200, setup, teardown }) {
  const bench = new Bench({ time, warmupTime, setup, teardown });
  for (const [name, fn] of Object.entries(cases)) bench.add(name, fn);
  await bench.run();
  const rows = bench.tasks.map((task) => {
    const r = task.result;
    const ok = r && r.state !== "errored" && r.throughput;
    return {
      name: task.name,
      opsPerSec: ok ? r.throughput.mean : 0,
      meanMs: ok ? r.latency.mean : NaN,
      p99Ms: ok ? r.latency.p99 : NaN,
      error: r?.state === "errored" ? String(r.error) : undefined,
    };
  });
  const base = rows.find((row) => row.name === (baseline ?? rows[0]?.name))?.opsPerSec || 1;
  for (const row of rows) row.ratio = row.opsPerSec / base;
  console.log(`\n### ${title}\n`);
  console.log(table(rows));
  return rows;
}

/** Markdown table of compare() rows. */
export function table(rows) {
  const lines = ["| case | ops/s | mean ms | p99 ms | ratio |", "|---|---:|---:|---:|---:|"];
  for (const row of rows) {
    lines.push(
      `| ${row.name} | ${fmt(row.opsPerSec, 0)} | ${fmt(row.meanMs, 3)} | ${fmt(row.p99Ms, 3)} | ${row.error ? `error: ${row.error}` : `${fmt(row.ratio, 2)}×`} |`,
    );
  }
  return lines.join("\n");
}

function fmt(n, digits) {
  return Number.isFinite(n)
    ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";
}
