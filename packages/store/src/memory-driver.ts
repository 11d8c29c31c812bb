import {
  assertValidKey,
  assertValidListPrefix,
  type Driver,
  type DriverEntry,
  type PutIfAbsentOptions,
  type VersionCondition,
  type VersionedValue,
} from "./driver.js";
import { sha256Hex } from "./content.js";

interface Slot {
  data: Uint8Array;
  modifiedAt: Date;
}

const checkKey = assertValidKey;

/** Keys a listing snapshots at a time. */
const LIST_PAGE = 256;

/** Index of the first key in `sorted` that is ≥ `key` (UTF-16 code unit order). */
function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The reference driver: everything in a Map, copied on the way in and out so that
 * callers can never mutate stored bytes. Atomic by construction (single-threaded).
 * Keys are also kept sorted, so a listing costs O(log n + matches), not a pass over the store.
 */
export class MemoryDriver implements Driver {
  readonly kind = "memory";
  readonly location: string;
  readonly #slots = new Map<string, Slot>();
  readonly #sorted: string[] = [];
  readonly #now: () => Date;

  constructor(options: { name?: string; now?: () => Date } = {}) {
    this.location = `memory:${options.name ?? ""}`;
    this.#now = options.now ?? (() => new Date());
  }

  async putIfAbsent(key: string, data: Uint8Array, options: PutIfAbsentOptions = {}): Promise<{ created: boolean }> {
    checkKey(key);
    const slot = this.#slots.get(key);
    if (slot) {
      if (options.refresh !== false) slot.modifiedAt = this.#now();
      return { created: false };
    }
    this.#store(key, data);
    return { created: true };
  }

  async touch(key: string): Promise<boolean> {
    checkKey(key);
    const slot = this.#slots.get(key);
    if (slot) slot.modifiedAt = this.#now();
    return slot !== undefined;
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    checkKey(key);
    this.#store(key, data);
  }

  /**
   * The version is the value's hash (like an S3 ETag): the same bytes, the same version. Writes go
   * through `putIfAbsent` / `put`, so a subclass that stages those (tests) stages these too.
   */
  async putVersioned(key: string, data: Uint8Array, condition: VersionCondition = {}): Promise<string | undefined> {
    checkKey(key);
    if (condition.ifAbsent) {
      if (!(await this.putIfAbsent(key, data, { refresh: false })).created) return undefined;
    } else {
      const slot = this.#slots.get(key);
      if (condition.ifMatch !== undefined && (slot === undefined || sha256Hex(slot.data) !== condition.ifMatch))
        return undefined;
      await this.put(key, data);
    }
    return sha256Hex(data);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    const slot = this.#slots.get(key);
    return slot ? Uint8Array.from(slot.data) : undefined;
  }

  /** The value with its version (its hash, as `putVersioned` returns). */
  async getVersioned(key: string): Promise<VersionedValue | undefined> {
    const data = await this.get(key);
    return data === undefined ? undefined : { data, version: sha256Hex(data) };
  }

  async head(key: string): Promise<DriverEntry | undefined> {
    checkKey(key);
    const slot = this.#slots.get(key);
    return slot ? { key, size: slot.data.byteLength, modifiedAt: new Date(slot.modifiedAt) } : undefined;
  }

  async delete(key: string, options: { ifUnmodifiedSince?: Date } = {}): Promise<boolean> {
    checkKey(key);
    const slot = this.#slots.get(key);
    if (!slot) return false;
    if (options.ifUnmodifiedSince && slot.modifiedAt >= options.ifUnmodifiedSince) return false;
    this.#slots.delete(key);
    this.#sorted.splice(lowerBound(this.#sorted, key), 1);
    return true;
  }

  async *list(prefix: string): AsyncIterable<DriverEntry> {
    assertValidListPrefix(prefix);
    // Pages of LIST_PAGE keys, each a snapshot: a concurrent writer cannot break iteration, and a
    // caller that stops early (a paged listing) pays for the keys it took, not for every match.
    // Like S3 and fs listings, keys written after the listing started may or may not appear.
    let after: string | undefined;
    for (;;) {
      const page: DriverEntry[] = [];
      let i = lowerBound(this.#sorted, after ?? prefix);
      if (after !== undefined && this.#sorted[i] === after) i++;
      for (; i < this.#sorted.length && page.length < LIST_PAGE && this.#sorted[i]!.startsWith(prefix); i++) {
        const key = this.#sorted[i]!;
        const slot = this.#slots.get(key)!;
        page.push({ key, size: slot.data.byteLength, modifiedAt: new Date(slot.modifiedAt) });
      }
      yield* page;
      if (page.length < LIST_PAGE) return;
      after = page[page.length - 1]!.key;
    }
  }

  #store(key: string, data: Uint8Array): void {
    if (!this.#slots.has(key)) this.#sorted.splice(lowerBound(this.#sorted, key), 0, key);
    this.#slots.set(key, { data: Uint8Array.from(data), modifiedAt: this.#now() });
  }

  uri(key: string): string {
    return `${this.location}/${key}`;
  }
}
