import type { ArtifactId, SessionReference } from "@artifact-refs/schema";
import { LRUCache } from "lru-cache";

/** A reference this store wrote, with the version the driver gave it (`Driver.putVersioned`). */
export interface WrittenReference {
  reference: SessionReference;
  version: string;
}

/**
 * The references this store instance wrote, keyed by (session, id), in an LRU of at most
 * `maxEntries`: hints only. A put of bytes the session already holds writes its reference over the
 * hinted version only (`ifMatch`), so a hint made stale by another process costs one failed write and
 * the put's usual path, never a wrong result. Dropped where this instance removes references.
 */
export class ReferenceHints {
  readonly #entries: LRUCache<string, WrittenReference>;

  constructor(maxEntries = 10_000) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  get(session: string, id: ArtifactId): WrittenReference | undefined {
    return this.#entries.get(keyOf(session, id));
  }

  /**
   * Keeps what was written or read (a copy: the caller's object is handed out and may be changed); an
   * empty version (the backend gave none) is no hint.
   */
  set(session: string, id: ArtifactId, written: WrittenReference): void {
    if (written.version === "") this.drop(session, id);
    else
      this.#entries.set(keyOf(session, id), {
        reference: structuredClone(written.reference),
        version: written.version,
      });
  }

  drop(session: string, id: ArtifactId): void {
    this.#entries.delete(keyOf(session, id));
  }

  /** References of any session may have been removed (purge, cleanup, repair). */
  clear(): void {
    this.#entries.clear();
  }
}

const keyOf = (session: string, id: ArtifactId) => `${session}\u0000${id}`;

/**
 * Blobs this store instance wrote (a put's unconditional blob write, which also refreshes the blob's
 * time), keyed by id: the monotonic time (performance.now()) the put started, in an LRU of at most
 * `maxEntries`. In a store with a gc grace floor, every gc runs with a grace of at least the floor, so
 * such a blob, with its record, stays until the floor has passed since that time unless a reference
 * holds it: a put of the same bytes into another session within it may write its reference at once.
 */
export class RecentBlobs {
  readonly #entries: LRUCache<string, number>;
  /** When `clear` last ran: a put that started before it may have written a blob the clear's cause (a purge) then deleted. */
  #clearedAt = Number.NEGATIVE_INFINITY;

  constructor(maxEntries = 10_000) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  /** When the put that last wrote `id` started, if within `withinMs` of now. */
  get(id: ArtifactId, withinMs: number): number | undefined {
    const since = this.#entries.get(id);
    return since !== undefined && performance.now() - since <= withinMs ? since : undefined;
  }

  /** A put that started at `since` wrote the blob of `id` and its write answered. */
  set(id: ArtifactId, since: number): void {
    if (since <= this.#clearedAt) return; // its write may have come before a delete that followed the clear
    if ((this.#entries.get(id) ?? Number.NEGATIVE_INFINITY) < since) this.#entries.set(id, since);
  }

  /** Blobs may have been deleted (purge, repair): forgets them, and what puts started before now report later. */
  clear(): void {
    this.#entries.clear();
    this.#clearedAt = performance.now();
  }
}
