import { isArefError, type ArefError, type Selection, type Selector } from "@artifact-refs/schema";
import { LRUCache } from "lru-cache";

/**
 * A map bounded by the total size of its values (lru-cache with `maxSize`): the least recently
 * used entries go first; a value larger than the whole bound is not kept.
 */
class SizedCache<V extends object> {
  /** Undefined when the bound is 0 (caching off: lru-cache needs a positive bound). */
  readonly #lru: LRUCache<string, V> | undefined;

  constructor(
    readonly maxSize: number,
    private readonly sizeOf: (value: V, key: string) => number,
  ) {
    this.#lru =
      maxSize > 0
        ? new LRUCache<string, V>({ maxSize, sizeCalculation: (value, key) => Math.max(1, sizeOf(value, key)) })
        : undefined;
  }

  get(key: string): V | undefined {
    return this.#lru?.get(key);
  }

  set(key: string, value: V): void {
    if (this.sizeOf(value, key) > this.maxSize) return;
    this.#lru?.set(key, value);
  }

  get size(): number {
    return this.#lru?.size ?? 0;
  }
}

/**
 * Selections of immutable content: an artifact's bytes never change for its id, and a selector
 * is deterministic, so (id, selector) → selection can be kept. Bounded by the characters held.
 */
export class SelectionCache extends SizedCache<Selection> {
  constructor(maxChars = 16 * 1024 * 1024) {
    super(maxChars, (selection, key) => selection.text.length + key.length + 256);
  }

  /** Selections that failed (bad or too expensive selectors): deterministic too, so the latest 4,096 failures are kept and rethrown. */
  readonly #failures = new LRUCache<string, ArefError>({ max: 4_096 });

  #queue: Promise<unknown> = Promise.resolve();

  /**
   * Starts selections one at a time, each in its own event-loop turn: concurrent requests would
   * otherwise run their (bounded) selections back to back in one microtask run, and other
   * clients would wait for all of them.
   */
  #turn<T>(fn: () => T): Promise<Awaited<T>> {
    // The queue holds only the synchronous part: a selection answered by a worker thread (a
    // promise) does not keep the next one waiting.
    const started = this.#queue
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => ({ result: fn() }));
    this.#queue = started.catch(() => undefined);
    return started.then(({ result }) => result as Awaited<T>);
  }

  /** The cached selection for `key`, or computes it; a selection error is cached (the latest 4,096) and rethrown. */
  async getOrSelect<T>(
    key: string,
    load: () => Promise<T>,
    select: (source: T) => Selection | Promise<Selection>,
  ): Promise<Selection> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const failed = this.#failures.get(key);
    if (failed !== undefined) throw failed;
    const source = await load(); // a load failure (IO) is not the selector's: not cached
    try {
      const selection = await this.#turn(() => select(source));
      this.set(key, selection);
      return selection;
    } catch (error) {
      if (isArefError(error) && error.code !== "IO_ERROR" && error.code !== "INTEGRITY" && this.maxSize > 0)
        this.#failures.set(key, error);
      throw error;
    }
  }

  static key(id: string, selector: Selector): string {
    // Canonical: keys sorted, so {a,b} and {b,a} share an entry.
    return `${id}\u0000${JSON.stringify(selector, Object.keys(selector).sort())}`;
  }
}

/** Bytes by key (serialized receipts), bounded by total bytes. */
export class ByteCache extends SizedCache<Buffer> {
  constructor(maxBytes = 16 * 1024 * 1024) {
    super(maxBytes, (bytes, key) => bytes.byteLength + key.length);
  }
}
