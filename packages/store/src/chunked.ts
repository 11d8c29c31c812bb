import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { ArefError, toShortRef, type ArtifactId, type ArtifactRecord } from "@artifact-refs/schema";
import { chunkCache } from "./chunk-cache.js";
import { CHUNKING_ALGORITHM, Chunker } from "./chunking.js";
import { sha256Hex } from "./content.js";
import type { StoreCore } from "./core.js";
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
import { WholeHash } from "./whole-hash.js";

/** Content up to this size is stored as one blob (today's layout, byte for byte); larger content is chunked. */
export const SINGLE_BLOB_MAX = 512 * 1024;
/** Chunk writes (and reads ahead) in flight at once: bounded parallelism on every backend. */
export const CHUNK_PARALLELISM = 4;

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
 * Writes a stream of bytes as chunks: each chunk an ordinary blob, written as soon as it is cut
 * (at most CHUNK_PARALLELISM writes in flight), while the whole-content hash (on a worker thread
 * for big content, see WholeHash), the per-chunk line and char counts and the text/binary check
 * run along. Memory stays bounded by the chunk size
 * times the parallelism, whatever the content's size. `finish` returns the manifest; the caller
 * writes it and the record after every chunk is stored (a crash before leaves only unreferenced
 * chunks, which gc sweeps).
 */
export class ChunkedWriter {
  readonly #core: StoreCore;
  readonly #storeBlob: StoreBlob;
  /** The driver's batch for new chunks when it has one (fs: pack files), committed before the manifest is built. */
  readonly #batch: ReturnType<NonNullable<StoreCore["driver"]["openBatch"]>> | undefined;
  readonly #chunker = new Chunker();
  readonly #hash = new WholeHash();
  readonly #utf8 = new TextDecoder("utf-8", { fatal: true });
  readonly #entries: Manifest["chunks"] = [];
  readonly #inflight = new Set<Promise<void>>();
  #failed: { error: unknown } | undefined;
  #binary = false;
  #size = 0;
  #lastByte = 10;

  constructor(core: StoreCore, storeBlob: StoreBlob) {
    this.#core = core;
    this.#storeBlob = storeBlob;
    this.#batch = core.driver.openBatch?.();
  }

  get size(): number {
    return this.#size;
  }

  async write(data: Uint8Array): Promise<void> {
    this.#size += data.byteLength;
    if (this.#size > this.#core.maxBytes) throw tooLarge(`more than ${this.#core.maxBytes}`, this.#core.maxBytes);
    await this.#hash.update(data);
    for (const chunk of this.#chunker.push(data)) await this.#store(chunk);
  }

  async finish(): Promise<{ id: ArtifactId; manifest: Manifest; manifestBytes: Uint8Array; manifestId: ArtifactId }> {
    for (const chunk of this.#chunker.end()) await this.#store(chunk);
    await this.#drain();
    this.#throwIfFailed();
    await this.#batch?.commit(); // every chunk readable (durable with fsync) before the manifest exists
    if (!this.#binary) {
      try {
        this.#utf8.decode();
      } catch {
        this.#binary = true;
      }
    }
    const id = await this.#hash.digest();
    const newlines = this.#entries.reduce((n, e) => n + e[2], 0);
    const manifest: Manifest = {
      manifest: MANIFEST_VERSION,
      artifact_id: id,
      size_bytes: this.#size,
      encoding: this.#binary ? "binary" : "utf-8",
      lines: newlines + (this.#lastByte === 10 ? 0 : 1),
      chunking: CHUNKING_ALGORITHM,
      chunks: this.#binary ? this.#entries.map(([cid, size, newlines]) => [cid, size, newlines, 0]) : this.#entries,
    };
    const manifestBytes = encodeManifest(manifest);
    return { id, manifest, manifestBytes, manifestId: sha256Hex(manifestBytes) };
  }

  /** Waits for every write in flight (after a failure, before reporting it); the whole-content hash is dropped. */
  async settle(): Promise<void> {
    this.#hash.drop();
    await this.#drain();
    await this.#batch?.commit().catch(() => undefined); // what was written stays garbage for gc, as chunk by chunk
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

  async #store(chunk: Uint8Array): Promise<void> {
    this.#throwIfFailed();
    const id = sha256Hex(chunk);
    let chars = 0;
    if (!this.#binary) {
      if (chunk.includes(0)) this.#binary = true;
      else if (isAscii(chunk)) {
        chars = chunk.byteLength; // ASCII (most logs): one UTF-16 char per byte, no decoding needed
      } else {
        try {
          chars = this.#utf8.decode(chunk, { stream: true }).length;
        } catch {
          this.#binary = true;
        }
      }
    }
    this.#lastByte = chunk[chunk.byteLength - 1]!;
    this.#entries.push([id, chunk.byteLength, countNewlines(chunk), chars]);
    while (this.#inflight.size >= CHUNK_PARALLELISM) await Promise.race(this.#inflight);
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
    const chunk = this.#chunk(index);
    const key = blobKey(chunk.id);
    const bytes = await this.#core.driver.get(key);
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
   * Every chunk in order (CHUNK_PARALLELISM reads ahead), each verified before it is yielded;
   * after the last one, INTEGRITY unless the whole content hashes to the artifact's id.
   */
  async *stream(): AsyncGenerator<Uint8Array> {
    const hash = createHash("sha256");
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
      hash.update(bytes);
      yield bytes;
    }
    const actual = hash.digest("hex");
    if (actual !== this.id) throw wholeHashMismatch(this.id, actual);
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
