import { SLOT_BYTES, acquireSlot, releaseSlot, type Slot } from "./chunk-slots.js";
import { SumJob } from "./chunk-worker.js";

/** Filled buffers posted to the worker and not yet hashed: bounds memory however far the worker falls behind. */
const MAX_SYNCING = 2;

/**
 * The whole-content SHA-256 of a full read of a chunked artifact, computed by a pooled chunk
 * worker while the main thread streams: each verified chunk is copied into the pooled shared
 * buffers (chunk-slots.ts) and posted; a buffer goes back to the pool once the worker hashed it.
 * Holds at most MAX_SYNCING + 1 buffers whatever the content's size. `digest` after the last
 * chunk; `drop` when the read stops early (or fails).
 */
export class ReadSum {
  readonly #job = new SumJob();
  #slot: Slot | undefined;
  #used = 0;
  /** Buffers posted and not known hashed yet, oldest first (each released when its sync is in). */
  readonly #syncing: Promise<void>[] = [];
  #dropped = false;

  async update(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.byteLength; ) {
      if (this.#slot === undefined || this.#used === SLOT_BYTES) await this.#next();
      const take = Math.min(bytes.byteLength - at, SLOT_BYTES - this.#used);
      this.#slot!.bytes.set(bytes.subarray(at, at + take), this.#used);
      this.#job.push(this.#slot!, this.#used, take);
      this.#used += take;
      at += take;
    }
  }

  async digest(): Promise<string> {
    this.#seal();
    const id = await this.#job.end(); // after every push (the worker answers in order)
    await Promise.all(this.#syncing);
    return id;
  }

  /** Abandons the hash; the buffers go back once the worker is past them (or at once if it died). */
  drop(): void {
    if (this.#dropped) return;
    this.#dropped = true;
    this.#seal();
    this.#job.drop(); // a sync still owed is rejected: its buffer is released below all the same
  }

  /** Posts the filled buffer's sync and takes a fresh one (waiting while MAX_SYNCING are still being hashed). */
  async #next(): Promise<void> {
    this.#seal();
    while (this.#syncing.length >= MAX_SYNCING) await this.#syncing.shift();
    this.#slot = await acquireSlot(this.#syncing.length);
    this.#used = 0;
  }

  #seal(): void {
    const slot = this.#slot;
    if (slot === undefined) return;
    this.#slot = undefined;
    const synced = this.#job.sync();
    // Released once hashed; also when the job was dropped or the worker died (its error is `end`'s).
    this.#syncing.push(
      synced.then(
        () => releaseSlot(slot),
        () => releaseSlot(slot),
      ),
    );
  }
}
