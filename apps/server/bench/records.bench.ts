// Session records at scale: a session with 100,000 execution records. The first page (newest 100)
// and a page in the middle, through the store (memory and fs) and through the HTTP API on the fs
// store, against a full listing of the session's records in the same run (what a listing without
// time windows costs). Two shapes: records spread at one per second (28 h), and a burst (all in
// 100 s, the worst case: one time window holds them all). The fs driver re-uses a snapshot of a
// directory that has not changed since it settled, so repeated pages are the warm case; the
// "fresh store" row opens a new driver for every page (the first request after a start).
// Run: pnpm --filter @artifact-refs/server bench:records   (BENCH_RECORDS=… to change the size)
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { openStore } from "@artifact-refs/store-spec";
import { machine } from "@artifact-refs/tooling/bench/harness";
import { startServer } from "../src/index.js";

const N = Number(process.env.BENCH_RECORDS ?? 100_000);
const SHAPES = { spread: 1_000, burst: 100_000 / N } as const; // ms between records

console.log(`machine: ${machine()}`);
console.log(`records per session: ${N.toLocaleString("en-US")}\n`);

const execution = (i: number, session: string, at: Date) => ({
  record: {
    execution_id: `exec_${i}`,
    session_id: session,
    timestamp: at.toISOString(),
    artifact_type: "toolform",
    artifact_title: "Read File",
    tool_name: "read_file",
    tool_args: { path: `src/file-${i % 500}.ts` },
    result_inline: `contents of file ${i}`,
    interaction_type: "form_submit",
    result_type: "success",
    result_summary: `Loaded src/file-${i % 500}.ts (0.1 KB)`,
    result_size: 20,
    is_referenceable: true,
    context_ttl: 10,
  },
  turn: 0,
});

// Build both sessions in memory (a store clock per record), then write the same objects as files
// where the fs driver keeps them (a record's file is its key under the root): 200,000 fsyncs
// through the driver would take many minutes here and measure nothing we read. The fs copy is kept
// in the temp directory between runs (BENCH_KEEP=0 removes it after the run).
const driver = new MemoryDriver();
let clock = 0;
const built = new ArtifactStore({ driver, now: () => new Date(clock), records: { maxRecords: N, pruneEvery: N } });
let started = Date.now();
for (const [shape, step] of Object.entries(SHAPES)) {
  clock = Date.now() - N * step - 60_000;
  for (let i = 0; i < N; i++) {
    await built.records.append(shape, "execution", execution(i, shape, new Date(clock)));
    clock += step;
  }
}
console.log(
  `memory: built ${(2 * N).toLocaleString("en-US")} records in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
const root = join(tmpdir(), `aref-records-bench-${N}`, "store");
if (!existsSync(join(root, "complete"))) {
  started = Date.now();
  await rm(dirname(root), { recursive: true, force: true });
  const dirs = new Set<string>();
  for await (const entry of driver.list("")) {
    const file = join(root, entry.key);
    if (!dirs.has(dirname(file))) {
      await mkdir(dirname(file), { recursive: true });
      dirs.add(dirname(file));
    }
    await writeFile(file, (await driver.get(entry.key))!);
  }
  await writeFile(join(root, "complete"), "");
  console.log(
    `fs: wrote ${(2 * N).toLocaleString("en-US")} record files in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} else console.log(`fs: reusing ${root}`);

const memory = new ArtifactStore({ driver });
const fs = await openStore(root);
const server = await startServer({ store: root, rateLimit: false, ui: false, port: 0 });
/** A cursor half way back through the session (the same store's ids). */
async function middleOf(store: ArtifactStore, shape: string): Promise<string> {
  let before: string | undefined;
  for (let p = 0; p < N / 2 / 1_000; p++)
    before = (await store.records.page(shape, "execution", { limit: 1_000, ...(before ? { before } : {}) })).before;
  return before!;
}

const drain = async (iterable: AsyncIterable<unknown>) => {
  let n = 0;
  for await (const _ of iterable) n++;
  return n;
};
const http = async (path: string) => {
  const res = await fetch(`${server.url}${path}`);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.arrayBuffer();
};

/** Median and p95 of `runs` timed calls (after one warm-up call), in ms. */
async function time(fn: () => Promise<unknown>, runs: number): Promise<{ median: number; p95: number }> {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)]!, p95: ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.95) - 1)]! };
}

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
try {
  for (const shape of Object.keys(SHAPES)) {
    const [memoryMiddle, fsMiddle] = [await middleOf(memory, shape), await middleOf(fs, shape)];
    const cases: Array<[string, () => Promise<unknown>, number]> = [
      ["memory: first page (newest 100)", () => memory.records.page(shape, "execution", { limit: 100 }), RUNS],
      [
        "memory: a page in the middle (100)",
        () => memory.records.page(shape, "execution", { limit: 100, before: memoryMiddle }),
        RUNS,
      ],
      [
        "memory: full listing of the session's keys",
        () => drain(driver.list(`records/${shape}/execution/`)),
        Math.ceil(RUNS / 4),
      ],
      ["fs: first page (newest 100)", () => fs.records.page(shape, "execution", { limit: 100 }), RUNS],
      [
        "fs: first page, a fresh store each time (no directory snapshots yet)",
        async () => (await openStore(root)).records.page(shape, "execution", { limit: 100 }),
        RUNS,
      ],
      [
        "fs: a page in the middle (100)",
        () => fs.records.page(shape, "execution", { limit: 100, before: fsMiddle }),
        RUNS,
      ],
      ["fs: full listing of the session's keys", () => drain(fs.driver.list(`records/${shape}/execution/`)), 3],
      [
        "HTTP on fs: GET executions?limit=100 (first page)",
        () => http(`/api/sessions/${shape}/executions?limit=100`),
        RUNS,
      ],
      ["HTTP on fs: GET context (newest 50, context rebuilt)", () => http(`/api/artifacts/context/${shape}`), RUNS],
    ];
    const rows: Array<{ name: string; median: number; p95: number }> = [];
    for (const [name, fn, runs] of cases) rows.push({ name, ...(await time(fn, runs)) });
    const baseline = rows.find((r) => r.name === "fs: full listing of the session's keys")!.median;
    console.log(
      `\n### ${shape}: ${N.toLocaleString("en-US")} records ${shape === "spread" ? "one per second" : "in 100 s"}\n`,
    );
    console.log("| case | median ms | p95 ms | share of the fs full listing |\n|---|---:|---:|---:|");
    for (const r of rows)
      console.log(`| ${r.name} | ${r.median.toFixed(1)} | ${r.p95.toFixed(1)} | ${(r.median / baseline).toFixed(3)} |`);
  }
} finally {
  await server.close();
  if (process.env.BENCH_KEEP === "0") await rm(dirname(root), { recursive: true, force: true });
}
