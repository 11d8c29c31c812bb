import type { Selection, Selector } from "@artifact-refs/schema";
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
    this.#lru = maxSize > 0 ? new LRUCache<string, V>({ maxSize, sizeCalculation: (value, key) => Math.max(1, sizeOf(value, key)) }) : undefined;
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
