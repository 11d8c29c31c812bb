import { SLOT_BYTES, acquireSlot, releaseSlot, type Slot } from "./chunk-slots.js";
import { ReadJob } from "./chunk-worker.js";
import { sha256Hex } from "./content.js";

/** Filled buffers posted for the whole-content hash and not yet hashed: bounds memory however far the worker falls behind. */
const MAX_SYNCING = 2;

/**
 * The hashing of a full read of a chunked artifact, on two pooled chunk workers while the main
 * thread reads and hands chunks on (chunk-worker.ts, ReadJob):
 * - `checkId`: a fetched chunk's SHA-256 (the caller compares it with the chunk's id before
 *   yielding it), computed on one worker from a copy in a pooled shared buffer (chunk-slots.ts);
 *   on this thread when the worker failed, or for a chunk larger than a buffer;
 * - `update` (each verified chunk, in order) and `digest`: the whole-content SHA-256 on the other.
 * A buffer goes back to the pool once the worker is done with it: a read holds a few whatever the
 * content's size. `drop` when the read stops early (or fails).
 */
export class ReadHashes {
  readonly #job = new ReadJob();
  #dropped = false;
  // The whole-content hash's buffers.
  #slot: Slot | undefined;
  #used = 0;
  /** Buffers posted and not known hashed yet, oldest first (each released when its sync is in). */
  readonly #syncing: Promise<void>[] = [];
  // The chunk checks' buffers.
  #check: Slot | undefined;
  #checkUsed = 0;
  /** Checks in flight in each check buffer (a buffer no longer filled goes back when its count is 0). */
  readonly #checking = new Map<Slot, number>();
  /** Places for checks are taken one after the other (taking a buffer may wait). */
  #placing: Promise<unknown> = Promise.resolve();

  async checkId(bytes: Uint8Array): Promise<string> {
    if (bytes.byteLength > SLOT_BYTES || this.#dropped) return sha256Hex(bytes);
    const placed = this.#placing.then(() => this.#place(bytes));
    this.#placing = placed;
    const { slot, offset } = await placed;
    try {
      return await this.#job.check(slot, offset, bytes.byteLength);
    } catch {
      return sha256Hex(bytes); // the worker died (or the read was dropped): checked here
    } finally {
      const left = this.#checking.get(slot)! - 1;
      this.#checking.set(slot, left);
      if (left === 0 && slot !== this.#check) this.#releaseCheck(slot);
    }
  }

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

  /** Abandons both jobs; the buffers go back once the workers are past them (or at once if one died). */
  drop(): void {
    if (this.#dropped) return;
    this.#dropped = true;
    this.#seal();
    this.#job.drop(); // replies still owed are rejected: their buffers are released all the same
    const check = this.#check;
    this.#check = undefined;
    if (check !== undefined && this.#checking.get(check) === 0) this.#releaseCheck(check);
  }

  /** Copies a chunk into the check buffer (a fresh one when it does not fit). */
  async #place(bytes: Uint8Array): Promise<{ slot: Slot; offset: number }> {
    if (this.#check === undefined || this.#checkUsed + bytes.byteLength > SLOT_BYTES) {
      const full = this.#check;
      this.#check = undefined;
      if (full !== undefined && this.#checking.get(full) === 0) this.#releaseCheck(full);
      const slot = await acquireSlot(this.#checking.size + this.#syncing.length);
      this.#checking.set(slot, 0);
      this.#check = slot;
      this.#checkUsed = 0;
    }
    const slot = this.#check;
    const offset = this.#checkUsed;
    slot.bytes.set(bytes, offset);
    this.#checkUsed += bytes.byteLength;
    this.#checking.set(slot, this.#checking.get(slot)! + 1);
    return { slot, offset };
  }

  #releaseCheck(slot: Slot): void {
    this.#checking.delete(slot);
    releaseSlot(slot);
  }

  /** Posts the filled buffer's sync and takes a fresh one (waiting while MAX_SYNCING are still being hashed). */
  async #next(): Promise<void> {
    this.#seal();
    while (this.#syncing.length >= MAX_SYNCING) await this.#syncing.shift();
    this.#slot = await acquireSlot(this.#syncing.length + this.#checking.size);
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
