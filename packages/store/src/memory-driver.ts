import { assertValidKey, assertValidListPrefix, type Driver, type DriverEntry } from "./driver.js";

interface Slot {
  data: Uint8Array;
  modifiedAt: Date;
}

const checkKey = assertValidKey;

/**
 * The reference driver: everything in a Map, copied on the way in and out so that
 * callers can never mutate stored bytes. Atomic by construction (single-threaded).
 */
export class MemoryDriver implements Driver {
  readonly kind = "memory";
  readonly location: string;
  readonly #slots = new Map<string, Slot>();
  readonly #now: () => Date;

  constructor(options: { name?: string; now?: () => Date } = {}) {
    this.location = `memory:${options.name ?? ""}`;
    this.#now = options.now ?? (() => new Date());
  }

  async putIfAbsent(key: string, data: Uint8Array): Promise<{ created: boolean }> {
    checkKey(key);
    const slot = this.#slots.get(key);
    if (slot) {
      slot.modifiedAt = this.#now();
      return { created: false };
    }
    this.#slots.set(key, { data: Uint8Array.from(data), modifiedAt: this.#now() });
    return { created: true };
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    checkKey(key);
    this.#slots.set(key, { data: Uint8Array.from(data), modifiedAt: this.#now() });
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    const slot = this.#slots.get(key);
    return slot ? Uint8Array.from(slot.data) : undefined;
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
    return this.#slots.delete(key);
  }

  async *list(prefix: string): AsyncIterable<DriverEntry> {
    assertValidListPrefix(prefix);
    // Snapshot first: a concurrent writer must not break iteration.
    const entries = [...this.#slots.entries()].filter(([key]) => key.startsWith(prefix));
    for (const [key, slot] of entries) yield { key, size: slot.data.byteLength, modifiedAt: new Date(slot.modifiedAt) };
  }

  uri(key: string): string {
    return `${this.location}/${key}`;
  }
}
