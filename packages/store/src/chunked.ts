import { isAscii } from "node:buffer";
import { createHash, type Hash } from "node:crypto";
import { ArefError, toShortRef, type ArtifactId, type ArtifactRecord } from "@artifact-refs/schema";
import { chunkCache } from "./chunk-cache.js";
import { defineChunkDescriber, hasNul } from "./chunk-describe.js";
import { SLOT_BYTES, acquireSlot, releaseSlot, type Slot } from "./chunk-slots.js";
import { ChunkJob, type ChunkEntry, type ChunkJobEnd } from "./chunk-worker.js";
import { CHUNKING_ALGORITHM, Chunker } from "./chunking.js";
import { sha256Hex } from "./content.js";
import { mapLimit } from "./concurrency.js";
import type { StoreCore } from "./core.js";
import type { DriverBatch } from "./driver.js";
import { blobKey } from "./layout.js";
import {
  MANIFEST_VERSION,
  chunkInfos,
  countNewlines,
  encodeManifest,
  parseManifest,
  type ChunkInfo,
  type Manifest,
} from "./manifest.js";
import { checkStoredBlob } from "./put-steps.js";

/** Content up to this size is stored as one blob (today's layout, byte for byte); larger content is chunked. */
export const SINGLE_BLOB_MAX = 512 * 1024;
/** Chunk writes (and reads ahead) in flight at once: bounded parallelism on every backend. */
export const CHUNK_PARALLELISM = 4;
/** Chunks a full read asks a driver with `getMany` for at once (~1 MiB of ~64 KiB chunks). */
export const GET_MANY_CHUNKS = 16;
/** Runs of GET_MANY_CHUNKS a full read keeps in flight ahead of the one it yields. */
export const GET_MANY_AHEAD = 4;

export function tooLarge(size: number | string, maxBytes: number): ArefError {
  return new ArefError(
    "TOO_LARGE",
    `content is ${size} bytes, over the store's cap of ${maxBytes} bytes per artifact`,
    {
      hint: "split it, select the part you need before storing, or raise the cap (maxBytes / --max-bytes)",
      details: { max_bytes: maxBytes, ...(typeof size === "number" ? { size_bytes: size } : {}) },
    },
  );
}

export type StoreBlob = (id: ArtifactId, bytes: Uint8Array) => Promise<unknown>;

/**
 * Chunk writes in flight at once into a driver's batch (fs: appends to a local pack file, no
 * request per chunk): more than CHUNK_PARALLELISM keeps the disk busy while the stream is read.
 */
const BATCH_PARALLELISM = 16;
/** Content is copied into batches of this size (with the worker: pooled shared buffers, see chunk-slots.ts). */
const BATCH = SLOT_BYTES;
/** Batches posted to the worker and not yet written: bounds memory whatever the content's size. */
const MAX_POSTED = 4;
/** The first this many bytes are cut and hashed on the main thread (content this small needs no worker round trip). */
export const PIPELINE_AFTER = BATCH;
/** `AREF_CHUNK_WORKER=off` keeps all of it on the main thread (read at each put): for benchmarks comparing both. */
const useWorker = () => process.env.AREF_CHUNK_WORKER !== "off";

const describeLocally = defineChunkDescriber({ sha256Hex, isAscii, hasNul, countNewlines });

interface LocalCutter {
  push(bytes: Uint8Array): ChunkEntry[];
  end(): ChunkJobEnd;
  binary(): boolean;
}

/** A batch of content copied from the stream, and where it starts in the content. */
interface Batch {
  start: number;
  bytes: Uint8Array;
  /** The pooled shared buffer holding it (with the worker), released once no thread needs it. */
  slot?: Slot;
  /** Its place in the order of posts to the worker. */
  posted?: number;
}

/**
 * Writes a stream of bytes as chunks: each chunk an ordinary blob, written as soon as it is cut
 * (at most CHUNK_PARALLELISM writes in flight). Past PIPELINE_AFTER bytes the cut points, the
 * chunk ids, the per-chunk line and char counts and the whole-content hash are computed by a
 * pooled worker thread (chunk-worker.ts) while the main thread reads and writes; below it, on the
 * main thread, with the same code. Memory stays bounded (MAX_POSTED batches, the chunk writes in
 * flight) whatever the content's size. `finish` returns the manifest; the caller writes it and the
 * record after every chunk is stored (a crash before leaves only unreferenced chunks, which gc sweeps).
 */
export class ChunkedWriter {
  readonly #core: StoreCore;
  readonly #storeBlob: StoreBlob;
  /** The driver's batch for new chunks when it has one (fs: pack files), committed before the manifest is built. */
  readonly #batch: DriverBatch | undefined;
  /** Chunks go to the batch as views of the pooled buffers (DriverBatch.flushed). */
  readonly #views: boolean;
  /** Pooled buffers on their way back to the pool (waiting for the batch to be done with them). */
  readonly #freeing: Promise<void>[] = [];
  #freeingNow = 0;
  readonly #entries: Manifest["chunks"] = [];
  readonly #inflight = new Set<Promise<void>>();
  readonly #parallelism: number;
  readonly #worker = useWorker();
  /** Batches not fully written yet, oldest first. */
  readonly #batches: Batch[] = [];
  /** The chunk writes of the batches posted to the worker, in order (never rejects: errors go to #failed). */
  #pump: Promise<void> = Promise.resolve();
  /** When each posted batch's chunks are all handed to writes, oldest first. */
  readonly #posted: Promise<void>[] = [];
  /** Where the worker's first chunk starts (the bytes before were cut here). */
  #cutFrom = 0;
  /** Batches posted to the worker so far. */
  #posts = 0;
  #job: ChunkJob | undefined;
  /** The main-thread cutter, once the content is known to stay on the main thread. */
  #local: LocalCutter | undefined;
  /** The batches cut here before the worker took over: it hashes them too. */
  #early: Batch[] = [];
  /** The batch being filled (also the last of #batches). */
  #filling: Batch | undefined;
  #filled = 0;
  #sealed = 0; // bytes of content in the batches sealed so far
  #written = 0; // bytes of content handed to chunk writes so far
  #failed: { error: unknown } | undefined;
  #size = 0;
  #lastByte = 10;

  constructor(core: StoreCore, storeBlob: StoreBlob) {
    this.#core = core;
    this.#storeBlob = storeBlob;
    this.#batch = core.driver.openBatch?.();
    this.#views = typeof this.#batch?.flushed === "function";
    this.#parallelism = this.#batch === undefined ? CHUNK_PARALLELISM : BATCH_PARALLELISM;
  }

  get size(): number {
    return this.#size;
  }

  async write(data: Uint8Array): Promise<void> {
    if (data.byteLength === 0) return;
    this.#size += data.byteLength;
    if (this.#size > this.#core.maxBytes) throw tooLarge(`more than ${this.#core.maxBytes}`, this.#core.maxBytes);
    this.#lastByte = data[data.byteLength - 1]!;
    for (let at = 0; at < data.byteLength; ) {
      if (this.#filling === undefined) {
        if (this.#worker) {
          const slot = await acquireSlot(this.#batches.filter((b) => b.slot !== undefined).length + this.#freeingNow);
          this.#filling = { start: this.#sealed, bytes: slot.bytes, slot };
        } else this.#filling = { start: this.#sealed, bytes: new Uint8Array(BATCH) };
        this.#batches.push(this.#filling);
      }
      const take = Math.min(data.byteLength - at, BATCH - this.#filled);
      this.#filling.bytes.set(data.subarray(at, at + take), this.#filled);
      this.#filled += take;
      at += take;
      // Until the worker takes over, bytes are cut here as they come (chunks are written as the stream goes).
      if (this.#job === undefined)
        await this.#writeChunks(this.#cutter().push(this.#filling.bytes.subarray(this.#filled - take, this.#filled)));
      if (this.#filled === BATCH) await this.#seal();
    }
  }

  async finish(): Promise<{ id: ArtifactId; manifest: Manifest; manifestBytes: Uint8Array; manifestId: ArtifactId }> {
    await this.#seal();
    let id: ArtifactId;
    let binary: boolean;
    if (this.#job !== undefined) {
      await this.#pump;
      this.#throwIfFailed();
      const end = await this.#job.end();
      this.#job = undefined;
      await this.#writeChunks(end.entries);
      ({ id, binary } = end);
    } else {
      const end = this.#cutter().end();
      await this.#writeChunks(end.entries);
      ({ id, binary } = end);
    }
    await this.#drain();
    this.#releaseAll(); // the workers are done with every batch (their last replies are in)
    await Promise.all(this.#freeing);
    this.#throwIfFailed();
    if (this.#written !== this.#size)
      throw new ArefError("INTERNAL", `the chunks add up to ${this.#written} bytes, not ${this.#size}`);
    await this.#batch?.commit(); // every chunk readable (durable with fsync) before the manifest is built
    const newlines = this.#entries.reduce((n, e) => n + e[2], 0);
    const manifest: Manifest = {
      manifest: MANIFEST_VERSION,
      artifact_id: id,
      size_bytes: this.#size,
      encoding: binary ? "binary" : "utf-8",
      lines: newlines + (this.#lastByte === 10 ? 0 : 1),
      chunking: CHUNKING_ALGORITHM,
      chunks: binary ? this.#entries.map(([cid, size, newlines]) => [cid, size, newlines, 0]) : this.#entries,
    };
    const manifestBytes = encodeManifest(manifest);
    return { id, manifest, manifestBytes, manifestId: sha256Hex(manifestBytes) };
  }

  /**
   * The chunks of this put (after `finish`) that are not stored any more: the put checks them after
   * writing its reference, since a gc with a grace shorter than the put may have swept one before.
   * Each is refreshed where the driver can (`touch`: one request each); else they are looked up
   * through the driver's batch when it can check many at once (`DriverBatch.missing`, fs: one look
   * per pack), else with one `head` each.
   */
  async chunksGone(): Promise<ArtifactId[]> {
    const { driver } = this.#core;
    const ids = [...new Set(this.#entries.map(([id]) => id))];
    if (driver.touch === undefined && this.#batch?.missing !== undefined) {
      const gone = new Set(await this.#batch.missing(ids.map((id) => blobKey(id))));
      return ids.filter((id) => gone.has(blobKey(id)));
    }
    const there = await mapLimit(ids, CHUNK_PARALLELISM, (id) =>
      driver.touch === undefined
        ? driver.head(blobKey(id)).then((entry) => entry !== undefined)
        : driver.touch(blobKey(id)),
    );
    return ids.filter((_, i) => !there[i]);
  }

  /** Waits for every write in flight (after a failure, before reporting it); the worker forgets the job. */
  async settle(): Promise<void> {
    this.#job?.drop(); // its replies still owed are rejected: the pump ends
    this.#job = undefined;
    await this.#pump;
    this.#early = [];
    this.#filling = undefined;
    await this.#drain();
    this.#releaseAll(); // a dropped job's late work on them is thrown away
    await Promise.all(this.#freeing);
    await this.#batch?.commit().catch(() => undefined); // what was written stays garbage for gc, as chunk by chunk
  }

  /**
   * Ends the batch being filled (cut here already while no worker has the job). Past
   * PIPELINE_AFTER bytes, hands the content to a pooled worker: it hashes the whole content from
   * its first byte and cuts from the end of the last chunk cut here (a chunker right after a cut is
   * in the same state as a new one, so the cuts are the same either way).
   */
  async #seal(): Promise<void> {
    const batch = this.#filling;
    if (batch === undefined) return;
    batch.bytes = batch.bytes.subarray(0, this.#filled);
    this.#filling = undefined; // a partial batch is the last one
    this.#sealed += this.#filled;
    this.#filled = 0;
    if (this.#job !== undefined) return this.#post(batch);
    if (!this.#worker) return;
    this.#early.push(batch);
    if (this.#sealed < PIPELINE_AFTER) return;
    this.#cutFrom = this.#written;
    this.#job = new ChunkJob(this.#local?.binary() ?? false, this.#cutFrom);
    this.#local = undefined;
    const early = this.#early;
    this.#early = [];
    for (const b of early) await this.#post(b);
  }

  /** Posts `batch` to the worker: cut from where the chunks written so far end (hashed whole in any case). */
  async #post(batch: Batch): Promise<void> {
    const from = Math.min(batch.bytes.byteLength, Math.max(0, this.#cutFrom - batch.start));
    const reply = this.#job!.push(batch.slot!, batch.bytes.byteLength, from);
    reply.catch(() => undefined); // awaited by the pump
    const seq = this.#posts++;
    batch.posted = seq;
    // The pump writes each batch's chunks in order while the stream is read on (reads and writes overlap).
    this.#pump = this.#pump.then(async () => {
      try {
        if (this.#failed === undefined) await this.#writeChunks(await reply);
        this.#release(seq);
      } catch (error) {
        this.#failed ??= { error };
        this.#releasePosted(); // a put waiting for a buffer gets one and fails at its next post
      }
    });
    this.#posted.push(this.#pump);
    while (this.#posted.length > MAX_POSTED) await this.#posted.shift();
    this.#throwIfFailed();
  }

  /** The main-thread cutter (content up to PIPELINE_AFTER, or no worker), made on first use. */
  #cutter(): LocalCutter {
    if (this.#local === undefined) {
      const chunker = new Chunker();
      const describer = new describeLocally();
      const whole = createHash("sha256");
      this.#local = {
        push: (bytes) => {
          whole.update(bytes);
          return chunker.push(bytes).map((chunk) => describer.describe(chunk));
        },
        end: () => {
          const entries = chunker.end().map((chunk) => describer.describe(chunk));
          return { entries, binary: describer.finish(), id: whole.digest("hex") };
        },
        binary: () => describer.binary,
      };
    }
    return this.#local;
  }

  /** Writes the chunks `entries` describe, in order, from the batches that hold their bytes. */
  async #writeChunks(entries: ChunkEntry[]): Promise<void> {
    for (const entry of entries) {
      const chunk = this.#take(entry[1]);
      this.#entries.push(entry);
      await this.#store(entry[0], chunk);
    }
  }

  /**
   * Releases the pooled buffers of the batches whose chunks are all taken, once both workers are
   * past them: the replies for batch `seq` come after the workers handled every batch posted before it.
   */
  #release(seq: number): void {
    for (;;) {
      const b = this.#batches[0];
      if (b === undefined || b.start + b.bytes.byteLength > this.#written || !(b.posted! < seq)) return;
      this.#batches.shift();
      this.#free(b.slot!);
    }
  }

  /**
   * After a failure: the posted batches' buffers go back at once (this put is abandoned; a worker
   * still reading one gives results nobody takes). The batch being filled stays until settle.
   */
  #releasePosted(): void {
    for (let i = this.#batches.length - 1; i >= 0; i--) {
      const b = this.#batches[i]!;
      if (b.posted === undefined || b.slot === undefined) continue;
      this.#batches.splice(i, 1);
      this.#free(b.slot);
    }
  }

  #releaseAll(): void {
    for (const b of this.#batches.splice(0)) if (b.slot !== undefined) this.#free(b.slot);
  }

  /**
   * Gives a pooled buffer back: at once when the chunk writes were copies; with views, once the
   * writes started so far (every chunk taken from it) resolved and the batch is done with their bytes.
   */
  #free(slot: Slot): void {
    if (!this.#views) return releaseSlot(slot);
    const batch = this.#batch!;
    this.#freeingNow++;
    const freed = Promise.all(this.#inflight)
      .then(() => batch.flushed!())
      .then(() => {
        this.#freeingNow--;
        releaseSlot(slot);
      });
    this.#freeing.push(freed);
  }

  /**
   * The next `size` bytes of content: a view of one batch (out of a pooled buffer: only for a batch
   * that says when it is done with it, see DriverBatch.flushed; else a copy, since a driver may keep what it
   * is given), or a copy when the chunk spans two.
   */
  #take(size: number): Uint8Array {
    const from = this.#written;
    this.#written += size;
    while (this.#batches.length > 0 && this.#batches[0]!.slot === undefined) {
      const b = this.#batches[0]!;
      if (b.start + b.bytes.byteLength > from) break;
      this.#batches.shift();
    }
    const first = this.#batches.find((b) => b.start + b.bytes.byteLength > from);
    if (first === undefined) throw new ArefError("INTERNAL", `no bytes held for the chunk at ${from}`);
    const at = from - first.start;
    if (at + size <= first.bytes.byteLength)
      return first.slot === undefined || this.#views
        ? first.bytes.subarray(at, at + size)
        : first.bytes.slice(at, at + size);
    const out = new Uint8Array(size);
    let filled = 0;
    for (const b of this.#batches.slice(this.#batches.indexOf(first))) {
      const start = Math.max(0, from + filled - b.start);
      const part = b.bytes.subarray(start, Math.min(b.bytes.byteLength, start + size - filled));
      out.set(part, filled);
      filled += part.byteLength;
      if (filled === size) break;
    }
    return out;
  }

  async #drain(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.all(this.#inflight);
  }

  #throwIfFailed(): void {
    if (this.#failed) throw this.#failed.error;
  }

  /** Stores one chunk: through the driver's batch (an existing chunk is checked as storeBlob checks it), else as a blob. */
  async #write(id: ArtifactId, chunk: Uint8Array): Promise<unknown> {
    if (this.#batch === undefined) return this.#storeBlob(id, chunk);
    const { created } = await this.#batch.add(blobKey(id), chunk);
    return created ? undefined : checkStoredBlob(this.#core, id, chunk, true);
  }

  async #store(id: ArtifactId, chunk: Uint8Array): Promise<void> {
    this.#throwIfFailed();
    while (this.#inflight.size >= this.#parallelism) await Promise.race(this.#inflight);
    this.#throwIfFailed();
    const write: Promise<void> = this.#write(id, chunk).then(
      () => undefined,
      (error: unknown) => {
        this.#failed ??= { error };
      },
    );
    const tracked = write.finally(() => this.#inflight.delete(tracked));
    this.#inflight.add(tracked);
  }
}

/**
 * A run read with `getMany`: its chunks checked in order, as `pieces` (checked chunks that sit side by side
 * in memory joined into one view, no copy); `failed`: what the first chunk failing threw (after the pieces
 * holding the checked chunks before it).
 */
interface CheckedRun {
  pieces: Uint8Array[];
  failed?: { error: unknown };
}

/** `pieces` with `bytes` appended: joined to the last piece when it starts where that one ends in the same buffer. */
function appendPiece(pieces: Uint8Array[], bytes: Uint8Array): void {
  const last = pieces[pieces.length - 1];
  if (last !== undefined && last.buffer === bytes.buffer && last.byteOffset + last.byteLength === bytes.byteOffset) {
    pieces[pieces.length - 1] = new Uint8Array(last.buffer, last.byteOffset, last.byteLength + bytes.byteLength);
    return;
  }
  pieces.push(bytes);
}

/** A stored chunked artifact: its manifest's chunks, each read and verified on demand. */
export class ChunkedArtifact {
  readonly id: ArtifactId;
  readonly record: ArtifactRecord;
  readonly manifestId: ArtifactId;
  readonly chunks: readonly ChunkInfo[];
  readonly #core: StoreCore;

  constructor(core: StoreCore, record: ArtifactRecord, manifestId: ArtifactId, manifest: Manifest) {
    this.#core = core;
    this.id = record.artifact_id;
    this.record = record;
    this.manifestId = manifestId;
    this.chunks = chunkInfos(manifest);
    this.lines = manifest.lines;
  }

  get size(): number {
    return this.record.size_bytes;
  }

  /** Total lines, counted like the selectors count them (a trailing newline does not start a line). */
  readonly lines: number;

  /** Total UTF-16 chars (0 for binary content). */
  get chars(): number {
    const last = this.chunks[this.chunks.length - 1]!;
    return last.charsBefore + last.chars;
  }

  /**
   * Chunk `index`, integrity-checked: INTEGRITY when it is missing or its bytes do not hash to its
   * id. A chunk checked by a recent read comes from the store's chunk cache (see chunk-cache.ts).
   * The bytes are shared: read them, never change them.
   */
  async read(index: number): Promise<Uint8Array> {
    const chunk = this.#chunk(index);
    const cache = chunkCache(this.#core);
    const cached = cache.get(chunk.id);
    if (cached !== undefined) return cached;
    const bytes = await this.#fetch(index);
    cache.set(chunk.id, bytes);
    return bytes;
  }

  #chunk(index: number): ChunkInfo {
    const chunk = this.chunks[index];
    if (chunk === undefined)
      throw new ArefError("INVALID_INPUT", `chunk ${index} is out of range (0-${this.chunks.length - 1})`);
    return chunk;
  }

  /** Chunk `index` from the backend, checked against its id. */
  async #fetch(index: number): Promise<Uint8Array> {
    return this.#check(index, await this.#core.driver.get(blobKey(this.#chunk(index).id)));
  }

  /** `bytes` read for chunk `index`, or INTEGRITY when they are missing or do not hash to its id. */
  #check(index: number, bytes: Uint8Array | undefined): Uint8Array {
    const chunk = this.#chunk(index);
    const key = blobKey(chunk.id);
    const where = `chunk ${index + 1} of ${this.chunks.length} of artifact ${toShortRef(this.id)}`;
    if (bytes === undefined) {
      throw new ArefError("INTEGRITY", `${where} is missing from the store`, {
        hint: "stash the original content again to restore it; `aref verify` lists the damaged artifacts",
        details: { artifact_id: this.id, chunk_id: chunk.id, key },
      });
    }
    const actual = sha256Hex(bytes);
    if (actual !== chunk.id) {
      throw new ArefError(
        "INTEGRITY",
        `${where} failed its integrity check: the stored bytes hash to ${actual.slice(0, 12)}…`,
        {
          hint: "stash the original content again to heal it; `aref verify` lists the damaged artifacts",
          details: { artifact_id: this.id, chunk_id: chunk.id, actual_sha256: actual, key },
        },
      );
    }
    return bytes;
  }

  /**
   * Chunks `from` to `to` (exclusive) with one `getMany` where the driver has it, each checked; one that
   * is missing there or fails its check is read again with `get` (another copy may be intact) and
   * checked again. `failed`: the INTEGRITY (or read error) of the first chunk that fails, after the
   * pieces of the checked chunks before it.
   */
  async #fetchRun(from: number, to: number): Promise<CheckedRun> {
    const keys: string[] = [];
    for (let i = from; i < to; i++) keys.push(blobKey(this.#chunk(i).id));
    const values = await this.#core.driver.getMany!(keys);
    const pieces: Uint8Array[] = [];
    for (let i = from; i < to; i++) {
      const bytes = values[i - from];
      if (bytes !== undefined && sha256Hex(bytes) === this.chunks[i]!.id) {
        appendPiece(pieces, bytes);
        continue;
      }
      try {
        appendPiece(pieces, await this.#fetch(i));
      } catch (error) {
        return { pieces, failed: { error } };
      }
    }
    return { pieces };
  }

  /**
   * The content in order, in pieces of one or more whole chunks, each chunk verified before the piece holding
   * it is yielded; after the last one, INTEGRITY unless the whole content hashes to the artifact's id. Reads
   * ahead: CHUNK_PARALLELISM chunks (one piece per chunk), or with a driver that has `getMany`, GET_MANY_AHEAD
   * runs of GET_MANY_CHUNKS chunks (one read each where they are packed side by side; chunks of a run that sit
   * side by side in memory are yielded as one piece, a view of the read, so a consumer writes ~1 MiB at once).
   * A piece is a view of the driver's buffer: read it, never change it.
   */
  async *stream(): AsyncGenerator<Uint8Array> {
    const hash = createHash("sha256");
    if (this.#core.driver.getMany === undefined) {
      for await (const bytes of this.#oneByOne()) {
        hash.update(bytes);
        yield bytes;
      }
    } else yield* this.#inRuns(hash);
    const actual = hash.digest("hex");
    if (actual !== this.id) throw wholeHashMismatch(this.id, actual);
  }

  async *#oneByOne(): AsyncGenerator<Uint8Array> {
    const ahead: Promise<Uint8Array>[] = [];
    let next = 0;
    const fill = () => {
      while (ahead.length < CHUNK_PARALLELISM && next < this.chunks.length) {
        const p = this.#fetch(next++); // a full read checks everything from the backend, not the cache
        p.catch(() => undefined); // awaited in order below
        ahead.push(p);
      }
    };
    fill();
    while (ahead.length > 0) {
      const bytes = await ahead.shift()!;
      fill();
      yield bytes;
    }
  }

  /**
   * The runs' pieces in order. Each run is checked (per chunk) as soon as it is read and added to the whole
   * content's `hash` right after the run before it, so both hashes run while the consumer still writes
   * earlier pieces, not between its writes.
   */
  async *#inRuns(hash: Hash): AsyncGenerator<Uint8Array> {
    const ahead: Promise<CheckedRun>[] = [];
    let next = 0;
    let hashed: Promise<unknown> = Promise.resolve();
    const fill = () => {
      while (ahead.length < GET_MANY_AHEAD && next < this.chunks.length) {
        const to = Math.min(next + GET_MANY_CHUNKS, this.chunks.length);
        const run = this.#fetchRun(next, to);
        // In order: after the run before it went into the whole hash (or failed: then this one is never yielded).
        const p = hashed.then(
          () => run,
          () => run,
        );
        const added = p.then((r) => {
          for (const piece of r.pieces) hash.update(piece);
          return r;
        });
        added.catch(() => undefined); // awaited in order below
        ahead.push(added);
        hashed = added;
        next = to;
      }
    };
    fill();
    while (ahead.length > 0) {
      const { pieces, failed } = await ahead.shift()!;
      if (failed === undefined) fill();
      yield* pieces;
      if (failed !== undefined) throw failed.error;
    }
  }
}

export function wholeHashMismatch(id: ArtifactId, actual: string): ArefError {
  return new ArefError(
    "INTEGRITY",
    `artifact ${toShortRef(id)} failed its integrity check: its chunks hash to ${actual.slice(0, 12)}… as a whole`,
    {
      hint: "the manifest does not describe this content; stash the original content again to rewrite it",
      details: { artifact_id: id, actual_sha256: actual },
    },
  );
}

/** Reads and checks the manifest a chunked record names. */
export async function openChunked(core: StoreCore, record: ArtifactRecord): Promise<ChunkedArtifact> {
  const manifestId = record.chunked!.manifest;
  const raw = await core.driver.get(blobKey(manifestId));
  if (raw === undefined) {
    throw new ArefError(
      "INTEGRITY",
      `the manifest of artifact ${toShortRef(record.artifact_id)} is missing from the store`,
      {
        hint: "stash the original content again to restore it; `aref verify` lists the damaged artifacts",
        details: { artifact_id: record.artifact_id, manifest_id: manifestId },
      },
    );
  }
  const manifest = parseManifest(raw, manifestId, record.artifact_id, record.size_bytes);
  return new ChunkedArtifact(core, record, manifestId, manifest);
}
