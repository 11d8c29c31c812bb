// One session size of bench/resolve-p50.ts, in a process of its own (the parent starts one per
// size, way in and round, with the same flags): builds the records, resolves the bench's messages
// and prints one JSON line with the per-call figures. Two sets of timed calls: the five messages
// again and again (the per-session caches of their words are warm), and messages that each bring
// a word the session has not been asked about (as a conversation does: the caches miss).
// `node --expose-gc --conditions=@artifact-refs/source --import tsx bench/p50-child.ts <n>`
import { readdirSync, readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { ResolutionSession, resolveReferences } from "../src/index.js";
import { executions } from "./fixtures.js";

export const QUERIES = [
  "summarize what I just loaded",
  "what did the billing query return?",
  "the orders3.ts file before the last one",
  "what went wrong with the last test run?",
  "write a haiku about spring",
];
/** The same five messages, each with a word no earlier call had ("the billing query" → "the vorkel query"). */
const FRESH: Array<(w: string) => string> = [
  (w) => `summarize the ${w} I just loaded`,
  (w) => `what did the ${w} query return?`,
  (w) => `the ${w}3.ts file before the last one`,
  (w) => `what went wrong with the last ${w} run?`,
  (w) => `write a haiku about ${w}`,
];
/** Timed rounds over the messages, after ten warm-up rounds (the compiler's background work then mostly done). */
const ROUNDS = 21;

/** A made-up lowercase word of 5-8 letters, from a fixed seed: the same sequence in every process. */
const madeUp = (() => {
  let s = 7;
  const next = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  return () =>
    Array.from({ length: 5 + Math.floor(next() * 4) }, () => "bcdfgklmnprstvz"[Math.floor(next() * 15)]).join("");
})();

export interface WayFigures {
  /** The call that builds the index (ms). */
  first: number;
  /** The five messages again and again. */
  repeated: CallFigures;
  /** Each call with a word new to the session's caches. */
  fresh: CallFigures;
}

/** Per-call figures of timed calls, each a p50 over all of them (and per message). */
export interface CallFigures {
  /** Wall time (ms). */
  wall: number;
  /** CPU time of the whole process (user + system, every thread: V8's GC helper threads too), ms. */
  cpu: number;
  /** Per message, in QUERIES order. */
  perMessage: { wall: number[]; cpu: number[] };
  /** Mean CPU per call (ms) over the timed calls of the main thread and of the other threads (see threadTimes). */
  mainCpuMean?: number;
  otherCpuMean?: number;
  /** Calls with at least one GC pause inside them, and the pauses' total (ms), over all timed calls. */
  gcCalls: number;
  gcMs: number;
  calls: number;
}

/**
 * Run time on a core (ns) of this process's main thread and of its other threads (V8's GC and
 * compiler helpers), from /proc/self/task/<tid>/schedstat. The kernel brings a running thread's
 * figure up to date only at a scheduler tick, so only differences over many calls are meaningful.
 * Undefined where /proc is not there (not Linux).
 */
function threadTimes(): { main: number; others: number } | undefined {
  try {
    let main = 0;
    let others = 0;
    for (const tid of readdirSync("/proc/self/task")) {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      if (Number(tid) === process.pid) main += ns;
      else others += ns;
    }
    return { main, others };
  } catch {
    return undefined;
  }
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(resolve: (q: string) => unknown): Promise<WayFigures> {
  const t = performance.now();
  resolve(QUERIES[0]!);
  const first = performance.now() - t;
  // Settle the heap the index build left (run with --expose-gc), so the calls do not pay for it.
  (globalThis as { gc?: () => void }).gc?.();
  for (let warm = 0; warm < 10; warm++) for (const q of QUERIES) resolve(q);
  for (let warm = 0; warm < 2; warm++) for (const f of FRESH) resolve(f(madeUp()));
  const repeated = await time(resolve, (i) => QUERIES[i]!);
  const fresh = await time(resolve, (i) => FRESH[i]!(madeUp()));
  return { first, repeated, fresh };
}

/** Times ROUNDS rounds of the five messages (`message(i)` gives the i-th). */
async function time(resolve: (q: string) => unknown, message: (i: number) => string): Promise<CallFigures> {
  const pauses: Array<{ start: number; duration: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ entryTypes: ["gc"] });
  const windows: Array<[number, number]> = [];
  const wall: number[] = [];
  const cpu: number[] = [];
  const before = threadTimes();
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < QUERIES.length; i++) {
      const q = message(i);
      const c = process.cpuUsage();
      const s = performance.now();
      resolve(q);
      const e = performance.now();
      const d = process.cpuUsage(c);
      windows.push([s, e]);
      wall.push(e - s);
      cpu.push((d.user + d.system) / 1000);
    }
  }
  const after = threadTimes();
  // GC entries are delivered after the synchronous loop: let them arrive, then match them to calls.
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  let gcCalls = 0;
  let gcMs = 0;
  for (const [s, e] of windows) {
    const inside = pauses.filter((p) => p.start >= s && p.start < e);
    if (inside.length > 0) gcCalls++;
    for (const p of inside) gcMs += p.duration;
  }
  const perOf = (xs: number[]) => QUERIES.map((_, i) => p50(xs.filter((_, k) => k % QUERIES.length === i)));
  return {
    wall: p50(wall),
    cpu: p50(cpu),
    perMessage: { wall: perOf(wall), cpu: perOf(cpu) },
    ...(before && after
      ? {
          mainCpuMean: (after.main - before.main) / 1e6 / wall.length,
          otherCpuMean: (after.others - before.others) / 1e6 / wall.length,
        }
      : {}),
    gcCalls,
    gcMs,
    calls: wall.length,
  };
}

const n = Number(process.argv[2]);
if (!Number.isInteger(n) || n <= 0) {
  console.error("usage: p50-child.ts <records, a positive integer>");
  process.exit(2);
}
const ways = (process.argv[3] ?? "array,session").split(",");
if (ways.some((w) => w !== "array" && w !== "session")) {
  console.error("p50-child.ts: the ways in are array and/or session (comma-separated)");
  process.exit(2);
}
const out: Record<string, WayFigures> = {};
if (ways.includes("array")) {
  const records = executions(n);
  out.array = await measure((q) => resolveReferences(q, records));
}
if (ways.includes("session")) {
  const session = new ResolutionSession(executions(n));
  out.session = await measure((q) => session.resolve(q));
}
console.log(JSON.stringify({ n, ways: out }));
