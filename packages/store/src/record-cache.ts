import type { ArtifactRecord, SessionReference } from "@artifact-refs/schema";
import { LRUCache } from "lru-cache";

/**
 * Artifact records this instance read back (parsed and checked) while a live reference held them, keyed by
 * that reference (session, id, created_at), in an LRU of at most `maxEntries`. A record is written once
 * (`putIfAbsent`) and only rewritten by repair, with the content's own values; it goes only with its
 * artifact, and gc never sweeps what a live reference holds. Every reference write sets a new `created_at`,
 * so the same reference still live in a later listing has held the artifact all along: its record is the
 * one read. The store serves a record only for a live reference of a listing it just made
 * (`ArtifactStore.listArtifacts`), so a cached record never makes a removed artifact look live. Failed reads
 * (CORRUPT_METADATA, INTEGRITY, absent) are never kept: they surface on every read.
 */
export class RecordCache {
  readonly #entries: LRUCache<string, ArtifactRecord>;

  constructor(maxEntries = 10_000) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  /** A copy: the caller may change what it is handed. */
  get(reference: SessionReference): ArtifactRecord | undefined {
    const record = this.#entries.get(keyOf(reference));
    return record === undefined ? undefined : structuredClone(record);
  }

  /** `record` was read back while `reference` (live) held it. */
  set(reference: SessionReference, record: ArtifactRecord): void {
    if (record.artifact_id === reference.artifact_id) this.#entries.set(keyOf(reference), structuredClone(record));
  }

  /** Records may have gone or been rewritten here (purge, gc, repair). */
  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The whole reference: the same session, id, time, TTL and metadata. */
const keyOf = (r: SessionReference) => JSON.stringify(r);
