import type { SessionReference } from "@artifact-refs/schema";

interface Entry {
  reference: SessionReference;
  /** Monotonic time of the read (performance.now()). */
  at: number;
}

/** A generation snapshot: a read made before an invalidation is never cached after it. */
export interface Generation {
  global: number;
  session: number;
}

/**
 * Session references read by `ArtifactStore.reference(…, { maxAgeMs })`, keyed by (session, ref).
 * Exact for this store instance: every reference write or removal it makes forgets the session's
 * entries (or all of them), and a read racing with such a change is not kept. Changes made by
 * other processes or instances are seen once an entry is older than the caller's `maxAgeMs`.
 * Expiry is checked by the caller on every hit; misses (NOT_FOUND, EXPIRED) are never kept.
 */
export class ReferenceCache {
  readonly #sessions = new Map<string, Map<string, Entry>>();
  readonly #generations = new Map<string, number>();
  #global = 0;
  #size = 0;

  constructor(readonly maxEntries = 10_000) {}

  generation(session: string): Generation {
    return { global: this.#global, session: this.#generations.get(session) ?? 0 };
  }

  get(session: string, ref: string, maxAgeMs: number): SessionReference | undefined {
    const entry = this.#sessions.get(session)?.get(ref);
    if (entry === undefined) return undefined;
    return performance.now() - entry.at <= maxAgeMs ? entry.reference : undefined;
  }

  /** Keeps a reference read that started at `since`, unless the session changed meanwhile. */
  set(session: string, ref: string, reference: SessionReference, since: Generation): void {
    const now = this.generation(session);
    if (now.global !== since.global || now.session !== since.session) return;
    if (this.#size >= this.maxEntries) this.clear();
    let refs = this.#sessions.get(session);
    if (refs === undefined) this.#sessions.set(session, (refs = new Map()));
    if (!refs.has(ref)) this.#size++;
    refs.set(ref, { reference, at: performance.now() });
  }

  /** The session's references changed (written, dropped): forget what was read of it. */
  forget(session: string): void {
    this.#size -= this.#sessions.get(session)?.size ?? 0;
    this.#sessions.delete(session);
    if (this.#generations.size >= this.maxEntries) this.clear();
    else this.#generations.set(session, (this.#generations.get(session) ?? 0) + 1);
  }

  /** References of any session may have changed (purge, gc, cleanup of expired ones, repair). */
  clear(): void {
    this.#global++;
    this.#sessions.clear();
    this.#generations.clear();
    this.#size = 0;
  }

  get size(): number {
    return this.#size;
  }
}
