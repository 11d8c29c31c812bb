import type { Selection, Selector } from "@artifact-refs/schema";

/**
 * Selections of immutable content: an artifact's bytes never change for its id, and a selector
 * is deterministic, so (id, selector) → selection can be kept. Bounded by the characters held
 * (least recently used first out). Access checks are never cached: every request still checks
 * that its session holds a live reference.
 */
export class SelectionCache {
  readonly #entries = new Map<string, { selection: Selection; size: number }>();
  #size = 0;

  constructor(readonly maxChars = 16 * 1024 * 1024) {}

  static key(id: string, selector: Selector): string {
    // Canonical: keys sorted, so {a,b} and {b,a} share an entry.
    return `${id}\u0000${JSON.stringify(selector, Object.keys(selector).sort())}`;
  }

  get(key: string): Selection | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry); // most recently used last
    return entry.selection;
  }

  set(key: string, selection: Selection): void {
    const size = selection.text.length + key.length + 256;
    if (size > this.maxChars) return;
    const old = this.#entries.get(key);
    if (old) {
      this.#size -= old.size;
      this.#entries.delete(key);
    }
    this.#entries.set(key, { selection, size });
    this.#size += size;
    for (const [k, v] of this.#entries) {
      if (this.#size <= this.maxChars) break;
      this.#entries.delete(k);
      this.#size -= v.size;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** Bytes by key, least recently used out first, bounded by total bytes. */
export class ByteCache {
  readonly #entries = new Map<string, Buffer>();
  #size = 0;

  constructor(readonly maxBytes = 16 * 1024 * 1024) {}

  get(key: string): Buffer | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit;
  }

  set(key: string, value: Buffer): void {
    const size = value.byteLength + key.length;
    if (size > this.maxBytes) return;
    const old = this.#entries.get(key);
    if (old) {
      this.#size -= old.byteLength + key.length;
      this.#entries.delete(key);
    }
    this.#entries.set(key, value);
    this.#size += size;
    for (const [k, v] of this.#entries) {
      if (this.#size <= this.maxBytes) break;
      this.#entries.delete(k);
      this.#size -= v.byteLength + k.length;
    }
  }
}
