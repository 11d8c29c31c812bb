import type { SessionReference } from "@artifact-refs/schema";
import { LRUCache } from "lru-cache";

interface Entry {
  reference: SessionReference;
  /** Monotonic time of the read (performance.now()). */
  at: number;
  /** The session's generation when it was read: a later change to the session makes it stale. */
  generation: number;
}

/** A generation snapshot: a read made before an invalidation is never cached after it. */
export interface Generation {
  global: number;
  session: number;
}

/**
 * Session references read by `ArtifactStore.reference(…, { maxAgeMs })`, keyed by (session, ref),
 * in an LRU of at most `maxEntries`. Exact for this store instance: every reference write or
 * removal it makes moves the session's generation (entries read before are stale from then on),
 * and a read racing with such a change is not kept. Changes made by other processes or instances
 * are seen once an entry is older than the caller's `maxAgeMs` (checked on every hit: each caller
 * gives its own age, so the LRU's own TTL is not used). Expiry is checked by the caller on every
 * hit; misses (NOT_FOUND, EXPIRED) are never kept.
 */
export class ReferenceCache {
  readonly #entries: LRUCache<string, Entry>;
  /** Per-session generations. Never evicted one by one (a forgotten generation would revive stale entries): cleared whole when full. */
  readonly #generations = new Map<string, number>();
  #global = 0;

  constructor(readonly maxEntries = 10_000) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  generation(session: string): Generation {
    return { global: this.#global, session: this.#generations.get(session) ?? 0 };
  }

  get(session: string, ref: string, maxAgeMs: number): SessionReference | undefined {
    const key = keyOf(session, ref);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.generation !== (this.#generations.get(session) ?? 0)) {
      this.#entries.delete(key);
      return undefined;
    }
    // A copy each time: the caller may change what it is handed, and the next hit must not see that.
    return performance.now() - entry.at <= maxAgeMs ? structuredClone(entry.reference) : undefined;
  }

  /** Keeps a reference read that started at `since`, unless the session changed meanwhile. */
  set(session: string, ref: string, reference: SessionReference, since: Generation): void {
    const now = this.generation(session);
    if (now.global !== since.global || now.session !== since.session) return;
    this.#entries.set(keyOf(session, ref), {
      reference: structuredClone(reference), // the caller keeps (and may change) its own object
      at: performance.now(),
      generation: now.session,
    });
  }

  /** The session's references changed (written, dropped): what was read of it is stale. */
  forget(session: string): void {
    if (this.#generations.size >= this.maxEntries) this.clear();
    else this.#generations.set(session, (this.#generations.get(session) ?? 0) + 1);
  }

  /** References of any session may have changed (purge, gc, cleanup of expired ones, repair). */
  clear(): void {
    this.#global++;
    this.#entries.clear();
    this.#generations.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

const keyOf = (session: string, ref: string) => `${session}\u0000${ref}`;
