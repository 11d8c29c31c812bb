import { createHash, type Hash } from "node:crypto";
import { Worker } from "node:worker_threads";
import { ArefError } from "@artifact-refs/schema";

/**
 * The whole-content SHA-256 of a chunked put, computed off the main thread once the content is
 * big enough to pay for it: the main thread cuts, hashes and writes the chunks while a worker
 * thread hashes the whole stream in parallel (the two SHA-256 passes no longer run one after the
 * other). Content up to PIPELINE_AFTER bytes is hashed on the main thread at `digest()` (no worker
 * round trip for a few MiB). Bytes posted but not yet hashed stay under MAX_OUTSTANDING: `update`
 * waits when the worker falls behind, so memory stays bounded whatever the content's size.
 */
export const PIPELINE_AFTER = 8 * 1024 * 1024;
/**
 * `AREF_HASH_WORKER=off` keeps the whole hash on the main thread (read at each put): for
 * benchmarks comparing both, and for hosts where worker threads are unwelcome.
 */
const pipelineAfter = () => (process.env.AREF_HASH_WORKER === "off" ? Number.POSITIVE_INFINITY : PIPELINE_AFTER);
const MAX_OUTSTANDING = 32 * 1024 * 1024;
/**
 * Bytes go to the worker in batches of this size: each batch is one copy into a fresh buffer that is
 * then moved (not copied) to the worker, and one message and one ack. Posting every stream piece
 * (64 KiB) on its own cost the main thread more in messages than hashing the bytes itself.
 */
const POST_BATCH = 4 * 1024 * 1024;

// CommonJS, evaluated by the worker: one sha256 per job id, an ack per update (for backpressure).
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { createHash } = require("node:crypto");
const jobs = new Map();
parentPort.on("message", (m) => {
  if (m.type === "update") {
    let h = jobs.get(m.job);
    if (h === undefined) jobs.set(m.job, (h = createHash("sha256")));
    h.update(new Uint8Array(m.buffer));
    parentPort.postMessage({ type: "ack", job: m.job, bytes: m.buffer.byteLength });
  } else if (m.type === "digest") {
    const h = jobs.get(m.job) ?? createHash("sha256");
    jobs.delete(m.job);
    parentPort.postMessage({ type: "digest", job: m.job, hex: h.digest("hex") });
  } else if (m.type === "drop") jobs.delete(m.job);
});
`;

interface Job {
  acked(bytes: number): void;
  digested(hex: string): void;
  failed(error: Error): void;
}

/** One worker thread per process, shared by every put in flight; referenced only while a job runs. */
class HashWorker {
  readonly #worker: Worker;
  readonly #jobs = new Map<number, Job>();
  #next = 1;
  #dead: Error | undefined;

  constructor() {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true });
    this.#worker.unref();
    this.#worker.on("message", (m: { type: string; job: number; bytes?: number; hex?: string }) => {
      const job = this.#jobs.get(m.job);
      if (m.type === "ack") job?.acked(m.bytes!);
      else if (m.type === "digest") {
        this.#jobs.delete(m.job);
        this.#release();
        job?.digested(m.hex!);
      }
    });
    const fail = (error: Error) => {
      this.#dead = error;
      if (shared === this) shared = undefined; // the next put starts a new worker
      for (const job of this.#jobs.values()) job.failed(error);
      this.#jobs.clear();
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", (code) => fail(new Error(`the hashing worker exited (code ${code})`)));
  }

  open(job: Job): number {
    if (this.#dead) throw this.#dead;
    const id = this.#next++;
    if (this.#jobs.size === 0) this.#worker.ref(); // keep the process alive while a digest is owed
    this.#jobs.set(id, job);
    return id;
  }

  /** Moves `buffer` (a fresh ArrayBuffer the caller gives up) to the worker. */
  update(id: number, buffer: ArrayBuffer): void {
    this.#worker.postMessage({ type: "update", job: id, buffer }, [buffer]);
  }

  digest(id: number): void {
    this.#worker.postMessage({ type: "digest", job: id });
  }

  drop(id: number): void {
    if (!this.#jobs.delete(id)) return;
    this.#release();
    this.#worker.postMessage({ type: "drop", job: id });
  }

  #release(): void {
    if (this.#jobs.size === 0) this.#worker.unref();
  }
}

let shared: HashWorker | undefined;

/** SHA-256 of a stream of pieces; see the module comment. Call `drop()` when abandoning it. */
export class WholeHash {
  #held: Uint8Array[] = []; // pieces not hashed yet, before the worker is used
  #heldBytes = 0;
  #worker: HashWorker | undefined;
  #job = 0;
  #outstanding = 0;
  #waiter: (() => void) | undefined;
  #result: { resolve(hex: string): void; reject(error: Error): void } | undefined;
  #error: Error | undefined;
  #local: Hash | undefined;
  /** The batch being filled for the worker (see POST_BATCH). */
  #batch: Uint8Array<ArrayBuffer> | undefined;
  #batchUsed = 0;
  readonly #after = pipelineAfter();

  async update(bytes: Uint8Array): Promise<void> {
    if (this.#error) throw this.#error;
    if (this.#worker === undefined) {
      this.#held.push(bytes);
      this.#heldBytes += bytes.byteLength;
      if (this.#heldBytes <= this.#after) return;
      if (!this.#startWorker()) {
        this.#local = createHash("sha256");
        for (const piece of this.#held) this.#local.update(piece);
        this.#held = [];
        return;
      }
      const held = this.#held;
      this.#held = [];
      for (const piece of held) this.#post(piece);
    } else this.#post(bytes);
    while (this.#outstanding > MAX_OUTSTANDING && this.#error === undefined)
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    if (this.#error) throw this.#error;
  }

  async digest(): Promise<string> {
    if (this.#error) throw this.#error;
    if (this.#local) {
      for (const piece of this.#held) this.#local.update(piece);
      return this.#local.digest("hex");
    }
    if (this.#worker === undefined) {
      const hash = createHash("sha256");
      for (const piece of this.#held) hash.update(piece);
      this.#held = [];
      return hash.digest("hex");
    }
    const worker = this.#worker;
    this.#flush();
    return new Promise<string>((resolve, reject) => {
      this.#result = { resolve, reject };
      worker.digest(this.#job);
    });
  }

  /** Abandons the hash (a failed put): the worker forgets the job. */
  drop(): void {
    this.#held = [];
    this.#batch = undefined;
    this.#worker?.drop(this.#job);
  }

  #post(bytes: Uint8Array): void {
    this.#outstanding += bytes.byteLength;
    for (let at = 0; at < bytes.byteLength; ) {
      this.#batch ??= new Uint8Array(POST_BATCH);
      const take = Math.min(bytes.byteLength - at, POST_BATCH - this.#batchUsed);
      this.#batch.set(bytes.subarray(at, at + take), this.#batchUsed);
      this.#batchUsed += take;
      at += take;
      if (this.#batchUsed === POST_BATCH) this.#flush();
    }
  }

  /** Sends the batch filled so far (a fresh buffer of exactly its bytes when it is not full). */
  #flush(): void {
    const batch = this.#batch;
    if (batch === undefined || this.#batchUsed === 0) return;
    const buffer = this.#batchUsed === POST_BATCH ? batch.buffer : batch.slice(0, this.#batchUsed).buffer;
    this.#batch = undefined;
    this.#batchUsed = 0;
    this.#worker!.update(this.#job, buffer);
  }

  /** Starts (or joins) the shared worker; false when worker threads are unavailable (then hashing stays local). */
  #startWorker(): boolean {
    try {
      shared ??= new HashWorker();
      this.#worker = shared;
      this.#job = shared.open({
        acked: (bytes) => {
          this.#outstanding -= bytes;
          if (this.#outstanding <= MAX_OUTSTANDING / 2) this.#wake();
        },
        digested: (hex) => this.#result?.resolve(hex),
        failed: (error) => {
          this.#error = new ArefError("UNAVAILABLE", `hashing the content failed: ${error.message}`);
          this.#wake();
          this.#result?.reject(this.#error);
        },
      });
      return true;
    } catch {
      this.#worker = undefined;
      return false;
    }
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}
