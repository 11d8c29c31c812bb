import { MemoryDriver } from "../memory-driver.js";

/**
 * A MemoryDriver for staging a race between a writer's steps and a gc (tests of the store's gc
 * safety): `holdReferenceWrite()` holds the next reference write (`put` of a `refs/` key) until
 * released, and `beforeBlobDelete` runs before each blob delete.
 *
 *   const driver = new StagedMemoryDriver({ now: () => new Date(clock) });
 *   const held = driver.holdReferenceWrite();
 *   const writer = store.put(content, { session: "s1" });
 *   await held.reached; // the writer waits at its reference write: run gc now
 *   held.release();
 */
export class StagedMemoryDriver extends MemoryDriver {
  readonly #refWrites = new ReferenceWriteHold();
  /** Runs (and is awaited) before each delete of a `blobs/` key. */
  beforeBlobDelete: (() => Promise<void>) | undefined;

  /** Holds the next reference write: `reached` resolves when it starts, `release()` lets it go on. */
  holdReferenceWrite(): { reached: Promise<void>; release: () => void } {
    return this.#refWrites.hold();
  }

  override async put(key: string, data: Uint8Array): Promise<void> {
    await this.#refWrites.before(key);
    return super.put(key, data);
  }

  override async delete(key: string, options?: { ifUnmodifiedSince?: Date }): Promise<boolean> {
    if (key.startsWith("blobs/") && this.beforeBlobDelete) await this.beforeBlobDelete();
    return super.delete(key, options);
  }
}

/**
 * Holds the next write of a reference (a `refs/` key) until released, for a driver of any kind that stages a race
 * (StagedMemoryDriver; an fs driver subclass): call `before(key)` first thing in its `put`.
 */
export class ReferenceWriteHold {
  #gate: Promise<void> | undefined;
  #onReached: (() => void) | undefined;

  /** Holds the next reference write: `reached` resolves when it starts, `release()` lets it go on. */
  hold(): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    this.#gate = new Promise((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (this.#onReached = resolve));
    return { reached, release };
  }

  /** Waits here when `key` is the reference write being held. */
  async before(key: string): Promise<void> {
    if (!key.startsWith("refs/") || this.#gate === undefined) return;
    const gate = this.#gate;
    this.#gate = undefined;
    this.#onReached?.();
    await gate;
  }
}
