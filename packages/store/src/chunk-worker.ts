import { Worker } from "node:worker_threads";
import { ArefError } from "@artifact-refs/schema";
import { defineChunkDescriber } from "./chunk-describe.js";
import { defineChunker } from "./chunking.js";
import { countNewlines } from "./manifest.js";

/**
 * The CPU work of a big chunked put, on worker threads: the content-defined cut points, each
 * chunk's SHA-256, newline and char counts, and the whole-content SHA-256. The main thread only
 * reads the stream, copies it into shared 4 MiB batches (SharedArrayBuffer: posted to the worker
 * without a copy, and still readable by the main thread, which writes the chunks from them) and
 * writes. The worker runs the same chunker and describer code as the main thread: it evaluates
 * their source text (see defineChunker and defineChunkDescriber).
 *
 * The pool is shared by every put in the process and bounded (POOL_SIZE workers); a worker is
 * referenced only while it has a job, so it never keeps the process alive.
 */
export const POOL_SIZE = 2;

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
const ChunkDescriber = (${defineChunkDescriber.toString()})({
  sha256Hex: (bytes) => createHash("sha256").update(bytes).digest("hex"),
  isAscii,
  countNewlines: (${countNewlines.toString()}),
});
const jobs = new Map();
parentPort.on("message", (m) => {
  if (m.type === "open") {
    jobs.set(m.job, { chunker: new Chunker(), describer: new ChunkDescriber(m.binary), whole: createHash("sha256") });
  } else if (m.type === "data") {
    const job = jobs.get(m.job);
    if (job === undefined) return;
    const bytes = new Uint8Array(m.buffer, 0, m.length);
    job.whole.update(bytes);
    const cut = m.from < m.length ? job.chunker.push(bytes.subarray(m.from)) : [];
    const entries = cut.map((chunk) => job.describer.describe(chunk));
    parentPort.postMessage({ type: "chunks", job: m.job, entries });
  } else if (m.type === "end") {
    const job = jobs.get(m.job);
    if (job === undefined) return;
    jobs.delete(m.job);
    const entries = job.chunker.end().map((chunk) => job.describer.describe(chunk));
    const binary = job.describer.finish();
    parentPort.postMessage({ type: "end", job: m.job, entries, binary, id: job.whole.digest("hex") });
  } else if (m.type === "drop") jobs.delete(m.job);
  else if (m.type === "crash") throw new Error(m.message);
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
  #dead: Error | undefined;

  constructor(onDead: (worker: ChunkWorker) => void) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true });
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

  open(job: number, binary: boolean): void {
    if (this.#dead) throw this.#dead;
    if (this.#jobs.size === 0) this.#worker.ref(); // keep the process alive while a reply is owed
    this.#jobs.set(job, []);
    this.#worker.postMessage({ type: "open", job, binary });
  }

  /** Posts a request of `job` and returns its reply (rejected if the worker dies first). */
  request<T>(job: number, message: Record<string, unknown>): Promise<T> {
    if (this.#dead) return Promise.reject(this.#dead);
    const pending = this.#jobs.get(job);
    if (pending === undefined) return Promise.reject(new ArefError("INTERNAL", `chunk job ${job} is not open`));
    const reply = new Promise<T>((resolve, reject) =>
      pending.push({ resolve: resolve as (v: unknown) => void, reject }),
    );
    this.#worker.postMessage({ ...message, job });
    return reply;
  }

  close(job: number): void {
    if (!this.#jobs.delete(job)) return;
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

/** One put's work on a pooled worker: `push` each batch in order, then `end`; `drop` to abandon it. */
export class ChunkJob {
  readonly #worker: ChunkWorker;
  readonly #id = nextJob++;

  /** `binary`: the content cut before this job started was already found to be binary. */
  constructor(binary = false) {
    let worker = pool.reduce<ChunkWorker | undefined>(
      (a, w) => (a === undefined || w.jobs < a.jobs ? w : a),
      undefined,
    );
    if (worker === undefined || (worker.jobs > 0 && pool.length < POOL_SIZE)) {
      worker = new ChunkWorker((dead) => pool.splice(pool.indexOf(dead) >>> 0, 1)); // the next put starts a new one
      pool.push(worker);
    }
    this.#worker = worker;
    worker.open(this.#id, binary);
  }

  /**
   * The chunks completed by the next `length` bytes of content, in `buffer` (shared: the caller
   * keeps reading it, never changes it). All of them go into the whole-content hash; the chunker
   * gets them from `from` on (the bytes before were cut on the main thread).
   */
  async push(buffer: SharedArrayBuffer, length: number, from = 0): Promise<ChunkEntry[]> {
    const reply = await this.#worker.request<{ entries: ChunkEntry[] }>(this.#id, {
      type: "data",
      buffer,
      length,
      from,
    });
    return reply.entries;
  }

  async end(): Promise<ChunkJobEnd> {
    const reply = await this.#worker.request<ChunkJobEnd>(this.#id, { type: "end" });
    this.#worker.close(this.#id);
    return reply;
  }

  drop(): void {
    this.#worker.close(this.#id);
  }

  /** Test hook (see ChunkWorker.kill). */
  kill(how: "terminate" | "throw"): void {
    this.#worker.kill(how);
  }
}

/** Workers alive in the pool (tests). */
export function chunkWorkers(): number {
  return pool.length;
}

/** Jobs started in this process so far (tests). */
export function chunkJobsStarted(): number {
  return nextJob - 1;
}
