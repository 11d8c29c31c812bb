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

  /** Keeps what was written; an empty version (the backend gave none) is no hint. */
  set(session: string, id: ArtifactId, written: WrittenReference): void {
    if (written.version === "") this.drop(session, id);
    else this.#entries.set(keyOf(session, id), written);
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
