/**
 * CPU per thread of a few 256 MB stashes into fresh fs stores (fsync off), for finding where a
 * stash's CPU goes: the main thread, the two chunk workers, libuv's pool and V8's own threads
 * (from /proc/self/task/<tid>/stat, Linux only). Each put also prints its start and end on the
 * monotonic clock (`window <start> <end>`, seconds), so a profiler's samples can be cut to the puts
 * after the first (JIT warm-up). Run from packages/store-fs, alone or under a profiler:
 *
 *   node --conditions=@artifact-refs/source --import tsx bench/stash-threads.bench.ts
 *   perf record -F 1999 -g -- node --perf-basic-prof --conditions=@artifact-refs/source --import tsx bench/stash-threads.bench.ts
 *
 * BENCH_PUTS (default 5), BENCH_STREAM_MB (default 256), BENCH_FILE (an existing file instead of the generated log),
 * BENCH_READER (how the file is read: `pieces`, readFilePieces, the default, as `aref stash <file>` reads it; or
 * `stream:<KiB>`, fs.createReadStream with that highWaterMark).
 */
import { createReadStream, readFileSync, readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PerformanceObserver, constants } from "node:perf_hooks";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver, readFilePieces } from "@artifact-refs/store-fs";
import { logText } from "./log-text.js";

const PUTS = Number(process.env.BENCH_PUTS ?? 5);
const MB = Number(process.env.BENCH_STREAM_MB ?? 256);
const READER = process.env.BENCH_READER ?? "pieces";
const openFile = (file: string): AsyncIterable<Uint8Array> =>
  READER === "pieces"
    ? readFilePieces(file)
    : createReadStream(file, { highWaterMark: Number(READER.replace(/^stream:/, "")) * 1024 });

/** CPU ms (user + system) of each thread of this process so far, by thread id. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
      out.set(tid, (Number(fields[11]) + Number(fields[12])) * 10); // utime + stime, in 10 ms ticks
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Full (mark-compact) garbage collections of the main thread so far. */
let fullGcs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
      fullGcs++;
}).observe({ entryTypes: ["gc"] });

const seconds = () => Number(process.hrtime.bigint()) / 1e9;

const dir = await mkdtemp(join(tmpdir(), "aref-stash-threads-"));
try {
  const file = process.env.BENCH_FILE ?? join(dir, "big.log");
  if (process.env.BENCH_FILE === undefined) await writeFile(file, logText(MB * 1024 * 1024, 7).join(""));
  console.log(`reader: ${READER}`);
  for (let i = 0; i < PUTS; i++) {
    const root = join(dir, `store-${i}`);
    const store = new ArtifactStore({ driver: new FsDriver({ root, fsync: false }) });
    const before = threadCpu();
    const cpu = process.cpuUsage();
    const gcsBefore = fullGcs;
    const start = seconds();
    await store.putStream(openFile(file), { session: "bench" });
    const end = seconds();
    await new Promise((resolve) => setImmediate(resolve)); // the GC entries of the put are delivered
    const used = process.cpuUsage(cpu);
    const perThread = [...threadCpu()]
      .map(([tid, ms]) => [tid === String(process.pid) ? "main" : tid, ms - (before.get(tid) ?? 0)] as const)
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1]);
    console.log(`window ${start.toFixed(4)} ${end.toFixed(4)}`);
    console.log(
      `put ${i}: wall ${((end - start) * 1000).toFixed(0)} ms, user ${(used.user / 1000).toFixed(0)} ms, system ${(used.system / 1000).toFixed(0)} ms, ${fullGcs - gcsBefore} full GCs, load ${loadavg()[0]!.toFixed(1)}`,
    );
    console.log(`  CPU ms per thread: ${perThread.map(([tid, ms]) => `${tid} ${ms}`).join(", ")}`);
    await store.close();
    await rm(root, { recursive: true, force: true });
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
