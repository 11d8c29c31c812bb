import { Worker } from "node:worker_threads";
import { ArefError } from "@artifact-refs/schema";
import { defineChunkDescriber, hasNul } from "./chunk-describe.js";
import { defineChunker } from "./chunking.js";
import { countNewlines } from "./manifest.js";
import type { Slot } from "./chunk-slots.js";

/**
 * The CPU work of a big chunked put, on worker threads: the content-defined cut points and each
 * chunk's newline and char counts on one, each chunk's SHA-256 and the whole-content SHA-256 on another. The main thread only
 * reads the stream, copies it into shared 4 MiB batches (SharedArrayBuffer: posted to the worker
 * without a copy, and still readable by the main thread, which writes the chunks from them) and
 * writes. The worker runs the same chunker and describer code as the main thread: it evaluates
 * their source text (see defineChunker and defineChunkDescriber).
 *
 * The pool is shared by every put in the process and bounded (POOL_SIZE workers); a worker is
 * referenced only while it has a job, so it never keeps the process alive.
 */
const POOL_SIZE = 2;

export type ChunkEntry = [id: string, size: number, newlines: number, chars: number];
export interface ChunkJobEnd {
  entries: ChunkEntry[];
  binary: boolean;
  id: string;
}

// CommonJS, evaluated by the worker. Replies come in the order of the messages of each job.
// \`__name\` is the one helper a transpiler that keeps function names (tsx) inserts into function
// source text; defined here, the evaluated functions run the same under tsx, vitest and the build.
const WORKER_SOURCE = `
var __name = (target, value) => Object.defineProperty(target, "name", { value, configurable: true });
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const { isAscii } = require("node:buffer");
const { Chunker } = (${defineChunker.toString()})((text) => createHash("sha256").update(text).digest());
// The cutting worker leaves the chunk ids to the hashing one (the two SHA-256 passes on one side,
// the chunker and the counts on the other: about the same work each).
const ChunkDescriber = (${defineChunkDescriber.toString()})({
  sha256Hex: () => "",
  isAscii,
  hasNul: ${hasNul.toString()},
  countNewlines: (${countNewlines.toString()}),
});
const jobs = new Map();
const slots = new Map(); // the pool's shared buffers (chunk-slots.ts), each sent once
parentPort.on("message", (m) => {
  if (m.buffer !== undefined) slots.set(m.slot, m.buffer);
  else if (m.slot !== undefined && !slots.has(m.slot)) throw new Error("a batch names a buffer this worker never got");
  if (m.type === "crash") throw new Error(m.message);
  if (m.type === "open") {
    jobs.set(
      m.job,
      m.kind === "hash"
        ? { whole: createHash("sha256"), batches: [], end: 0, at: m.at }
        : { chunker: new Chunker(), describer: new ChunkDescriber(m.binary) },
    );
    return;
  }
  const job = jobs.get(m.job);
  if (m.type === "drop" || job === undefined) {
    jobs.delete(m.job);
    return;
  }
  if (m.type === "data" && job.whole) {
    // Hashed now, kept (shared, not copied) until the ids of the chunks in it are asked for. No reply.
    const bytes = new Uint8Array(slots.get(m.slot), 0, m.length);
    job.whole.update(bytes);
    job.batches.push({ start: job.end, bytes });
    job.end += m.length;
  } else if (m.type === "data") {
    const bytes = new Uint8Array(slots.get(m.slot), 0, m.length);
    const cut = m.from < m.length ? job.chunker.push(bytes.subarray(m.from)) : [];
    parentPort.postMessage({ type: "chunks", job: m.job, entries: cut.map((chunk) => job.describer.describe(chunk)) });
  } else if (m.type === "ids") {
    // The SHA-256 of each next chunk (of these sizes), from the batches that hold its bytes.
    const ids = m.sizes.map((size) => {
      const hash = createHash("sha256");
      for (const b of job.batches) {
        const from = Math.max(job.at, b.start);
        const to = Math.min(job.at + size, b.start + b.bytes.byteLength);
        if (from < to) hash.update(b.bytes.subarray(from - b.start, to - b.start));
      }
      job.at += size;
      while (job.batches.length > 0 && job.batches[0].start + job.batches[0].bytes.byteLength <= job.at) job.batches.shift();
      return hash.digest("hex");
    });
    parentPort.postMessage({ type: "ids", job: m.job, ids });
  } else if (m.type === "end") {
    jobs.delete(m.job);
    if (job.whole) parentPort.postMessage({ type: "end", job: m.job, id: job.whole.digest("hex") });
    else {
      const entries = job.chunker.end().map((chunk) => job.describer.describe(chunk));
      parentPort.postMessage({ type: "end", job: m.job, entries, binary: job.describer.finish() });
    }
  }
});
`;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** One worker thread and the jobs it runs; each job's replies resolve its pending requests in order. */
class ChunkWorker {
  readonly #worker: Worker;
  readonly #jobs = new Map<number, Pending[]>();
  /** Pool slots this worker has the buffer of. */
  readonly #seen = new Set<number>();
  #dead: Error | undefined;

  constructor(onDead: (worker: ChunkWorker) => void) {
    // No execArgv of the parent (loaders, --input-type): the source is plain CommonJS needing none.
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
    this.#worker.unref();
    this.#worker.on("message", (m: { job: number }) => {
      const pending = this.#jobs.get(m.job)?.shift();
      pending?.resolve(m);
    });
    const fail = (error: Error) => {
      if (this.#dead) return;
      this.#dead = new ArefError("UNAVAILABLE", `the chunking worker failed: ${error.message}`, {
        hint: "stash again; nothing of this put was kept",
      });
      onDead(this);
      for (const pending of this.#jobs.values()) for (const p of pending.splice(0)) p.reject(this.#dead);
      this.#jobs.clear();
      this.#worker.unref();
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", (code) => fail(new Error(`the thread exited (code ${code})`)));
  }

  get jobs(): number {
    return this.#jobs.size;
  }

  open(job: number, options: { kind: "cut" | "hash"; binary?: boolean; at?: number }): void {
    if (this.#dead) throw this.#dead;
    if (this.#jobs.size === 0) this.#worker.ref(); // keep the process alive while a reply is owed
    this.#jobs.set(job, []);
    this.#worker.postMessage({ type: "open", job, ...options });
  }

  /** Posts a request of `job` and returns its reply (rejected if the worker dies first). */
  request<T>(job: number, message: Record<string, unknown>): Promise<T> {
    if (this.#dead) return Promise.reject(this.#dead);
    const pending = this.#jobs.get(job);
    if (pending === undefined) return Promise.reject(new ArefError("INTERNAL", `chunk job ${job} is not open`));
    const reply = new Promise<T>((resolve, reject) =>
      pending.push({ resolve: resolve as (v: unknown) => void, reject }),
    );
    this.#send(job, message);
    return reply;
  }

  /** A data message naming `slot` (its buffer goes along the first time this worker gets it, see #send). */
  data(slot: Slot, length: number, from: number): Record<string, unknown> {
    return { type: "data", slot, length, from };
  }

  #send(job: number, message: Record<string, unknown>): void {
    const slot = message.slot as Slot | undefined;
    if (slot === undefined) return this.#worker.postMessage({ ...message, job });
    const first = !this.#seen.has(slot.index);
    this.#worker.postMessage({ ...message, job, slot: slot.index, buffer: first ? slot.buffer : undefined });
    this.#seen.add(slot.index);
  }

  /** Posts a message of `job` that gets no reply. */
  post(job: number, message: Record<string, unknown>): void {
    if (!this.#dead && this.#jobs.has(job)) this.#send(job, message);
  }

  /** Ends `job`; replies it still owes are rejected (a put abandoned mid-way). */
  close(job: number): void {
    const pending = this.#jobs.get(job);
    if (pending === undefined) return;
    this.#jobs.delete(job);
    const dropped = new ArefError("UNAVAILABLE", "the chunking job was dropped");
    for (const p of pending.splice(0)) p.reject(dropped);
    if (!this.#dead) this.#worker.postMessage({ type: "drop", job });
    if (this.#jobs.size === 0) this.#worker.unref();
  }

  /** Test hook: makes the worker thread really end (terminate) or throw, with this job in flight. */
  kill(how: "terminate" | "throw"): void {
    if (how === "terminate") void this.#worker.terminate();
    else this.#worker.postMessage({ type: "crash", message: "thrown on purpose by a test" });
  }
}

const pool: ChunkWorker[] = [];
let nextJob = 1;

/** The least busy worker of the pool, other than `besides`; a new one while the pool has room and all are busy. */
function pick(besides?: ChunkWorker): ChunkWorker {
  const others = pool.filter((w) => w !== besides);
  const idle = others.reduce<ChunkWorker | undefined>(
    (a, w) => (a === undefined || w.jobs < a.jobs ? w : a),
    undefined,
  );
  if (idle !== undefined && (idle.jobs === 0 || pool.length >= POOL_SIZE)) return idle;
  if (pool.length >= POOL_SIZE) return besides!; // a pool of one: both jobs on it
  const worker = new ChunkWorker((dead) => {
    const at = pool.indexOf(dead);
    if (at >= 0) pool.splice(at, 1); // the next put starts a new one
  });
  pool.push(worker);
  return worker;
}

/**
 * One put's work on the pool, split about evenly over two workers: one finds the cut points and
 * the newline and char counts; the other computes the whole-content hash and each chunk's id
 * (both SHA-256 passes). Both get every batch (shared, not copied). `push` each batch in order,
 * then `end`; `drop` to abandon it.
 */
export class ChunkJob {
  readonly #cut: { worker: ChunkWorker; id: number };
  readonly #hash: { worker: ChunkWorker; id: number };

  /**
   * `binary`: the content cut before this job started was already found to be binary; `at`: where
   * in the content this job's first chunk starts (the bytes before were cut on the main thread).
   */
  constructor(binary: boolean, at: number) {
    const cutter = pick();
    this.#cut = { worker: cutter, id: nextJob++ };
    cutter.open(this.#cut.id, { kind: "cut", binary });
    const hasher = pick(cutter);
    this.#hash = { worker: hasher, id: nextJob++ };
    try {
      hasher.open(this.#hash.id, { kind: "hash", at });
    } catch (error) {
      cutter.close(this.#cut.id);
      throw error;
    }
  }

  /**
   * The chunks completed by the next `length` bytes of content, in `slot` (shared: the caller
   * keeps reading it and changes it only once this job is done with it). All of them go into the
   * whole-content hash; the chunker gets them from `from` on (the bytes before were cut on the main thread).
   */
  async push(slot: Slot, length: number, from = 0): Promise<ChunkEntry[]> {
    this.#hash.worker.post(this.#hash.id, this.#hash.worker.data(slot, length, from));
    const cut = this.#cut.worker;
    const reply = await cut.request<{ entries: ChunkEntry[] }>(this.#cut.id, cut.data(slot, length, from));
    return this.#withIds(reply.entries);
  }

  async end(): Promise<ChunkJobEnd> {
    const cut = await this.#cut.worker.request<{ entries: ChunkEntry[]; binary: boolean }>(this.#cut.id, {
      type: "end",
    });
    const entries = await this.#withIds(cut.entries);
    const { id } = await this.#hash.worker.request<{ id: string }>(this.#hash.id, { type: "end" });
    this.drop();
    return { entries, binary: cut.binary, id };
  }

  drop(): void {
    this.#cut.worker.close(this.#cut.id);
    this.#hash.worker.close(this.#hash.id);
  }

  /** The entries with their chunk ids, from the hashing worker. */
  async #withIds(entries: ChunkEntry[]): Promise<ChunkEntry[]> {
    if (entries.length === 0) return entries;
    const { ids } = await this.#hash.worker.request<{ ids: string[] }>(this.#hash.id, {
      type: "ids",
      sizes: entries.map((e) => e[1]),
    });
    return entries.map((e, i) => [ids[i]!, e[1], e[2], e[3]]);
  }
}

/** Jobs open on the pool's workers (tests: 0 once every put settled). */
export function chunkJobsOpen(): number {
  return pool.reduce((n, w) => n + w.jobs, 0);
}

/** Test hook: really ends (terminate) or crashes (an uncaught throw) every worker of the pool. */
export function killChunkWorkers(how: "terminate" | "throw"): void {
  for (const worker of [...pool]) worker.kill(how);
}

/** Workers alive in the pool (tests). */
export function chunkWorkers(): number {
  return pool.length;
}

/** Puts handed to the pool in this process so far (tests). */
export function chunkJobsStarted(): number {
  return (nextJob - 1) / 2;
}
