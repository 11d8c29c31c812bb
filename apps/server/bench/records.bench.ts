// Session records at scale: a session with 100,000 execution records. The first page (newest 100)
// and a page in the middle, through the store (memory and fs) and through the HTTP API on the fs
// store, against a full listing of the session's records in the same run (what a listing without
// time windows costs). Two shapes: records spread at one per second (28 h), and a burst (all in
// 100 s, the worst case: one time window holds them all).
// Run: pnpm --filter @artifact-refs/server bench:records   (BENCH_RECORDS=… to change the size)
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { openStore } from "@artifact-refs/store-spec";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";
import { startServer } from "../src/index.js";

const N = Number(process.env.BENCH_RECORDS ?? 100_000);
const TIME = Number(process.env.BENCH_TIME_MS ?? 1_000);
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
// through the driver would take minutes on this machine and measure nothing we read here.
const driver = new MemoryDriver();
let clock = 0;
const built = new ArtifactStore({ driver, now: () => new Date(clock), records: { maxRecords: N } });
const started = Date.now();
for (const [shape, step] of Object.entries(SHAPES)) {
  clock = Date.now() - N * step - 60_000;
  for (let i = 0; i < N; i++) {
    await built.records.append(shape, "execution", execution(i, shape, new Date(clock)));
    clock += step;
  }
}
const root = join(await mkdtemp(join(tmpdir(), "aref-records-bench-")), "store");
const dirs = new Set<string>();
for await (const entry of driver.list("")) {
  const file = join(root, entry.key);
  if (!dirs.has(dirname(file))) {
    await mkdir(dirname(file), { recursive: true });
    dirs.add(dirname(file));
  }
  await writeFile(file, (await driver.get(entry.key))!);
}
console.log(`built ${(2 * N).toLocaleString("en-US")} records in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

const memory = new ArtifactStore({ driver });
const fs = await openStore(root);
const server = await startServer({ store: root, rateLimit: false, ui: false, port: 0 });
const middle: Record<string, string> = {};
for (const shape of Object.keys(SHAPES)) {
  let before: string | undefined;
  for (let p = 0; p < N / 2 / 1_000; p++) before = (await memory.records.page(shape, "execution", { limit: 1_000, ...(before ? { before } : {}) })).before;
  middle[shape] = before!;
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

try {
  for (const shape of Object.keys(SHAPES)) {
    await compare({
      title: `${shape}: ${N.toLocaleString("en-US")} records`,
      baseline: "fs: full listing of the session's keys",
      time: TIME,
      cases: {
        "memory: first page (newest 100)": () => memory.records.page(shape, "execution", { limit: 100 }),
        "memory: a page in the middle": () => memory.records.page(shape, "execution", { limit: 100, before: middle[shape]! }),
        "memory: full listing of the session's keys": () => drain(driver.list(`records/${shape}/execution/`)),
        "fs: first page (newest 100)": () => fs.records.page(shape, "execution", { limit: 100 }),
        "fs: a page in the middle": () => fs.records.page(shape, "execution", { limit: 100, before: middle[shape]! }),
        "fs: full listing of the session's keys": () => drain(fs.driver.list(`records/${shape}/execution/`)),
        "HTTP on fs: GET executions (first page, 100)": () => http(`/api/sessions/${shape}/executions?limit=100`),
        "HTTP on fs: GET context (newest 50, rebuilt)": () => http(`/api/artifacts/context/${shape}`),
      },
    });
  }
} finally {
  await server.close();
  await rm(dirname(root), { recursive: true, force: true });
}
