import { LRUCache } from "lru-cache";
import type { ArtifactId } from "@artifact-refs/schema";
import type { StoreCore } from "./core.js";

/** Bytes of verified chunks kept per store (most recently read first out last). */
export const CHUNK_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Recently read chunks, already checked against their ids, per store: agents page through one
 * artifact with different selectors (tail, then grep, then a range), and each bounded read would
 * otherwise fetch and re-hash the same chunks again. A chunk's id is the SHA-256 of its bytes,
 * so a cached chunk is never stale; the bytes are the ones that passed the check when first read.
 * Bounded by bytes (CHUNK_CACHE_BYTES), least recently used first out. Chunk reads (selectors,
 * `chunks().read`, `get`) use it; `getStream` (cat) and verify do not: they read and check every
 * chunk from the backend, so a chunk damaged on disk after it was cached is still reported there.
 */
const caches = new WeakMap<StoreCore, LRUCache<ArtifactId, Uint8Array>>();

export function chunkCache(core: StoreCore): LRUCache<ArtifactId, Uint8Array> {
  let cache = caches.get(core);
  if (cache === undefined) {
    cache = new LRUCache<ArtifactId, Uint8Array>({
      maxSize: CHUNK_CACHE_BYTES,
      sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
    });
    caches.set(core, cache);
  }
  return cache;
}
