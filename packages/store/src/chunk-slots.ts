/**
 * The shared buffers a big chunked put copies its stream into for the chunk workers: a process-wide
 * pool of 4 MiB SharedArrayBuffers, each posted to a worker once and then named by its index.
 * Reusing them is what bounds memory: a worker thread allocates so little that its garbage
 * collector rarely runs, so a fresh shared buffer per batch would stay alive in its heap long after
 * use (a 1 GiB stash peaked at 568 MB that way). A put holds at most a few slots (the batches
 * posted and not yet written) and always gets two (the fewest it can progress with: a chunk may
 * span two batches), so concurrent puts never wait on each other forever; the pool grows past
 * POOL_SLOTS only for that.
 */
export const SLOT_BYTES = 4 * 1024 * 1024;
export const POOL_SLOTS = 16;

export interface Slot {
  readonly index: number;
  readonly buffer: SharedArrayBuffer;
  readonly bytes: Uint8Array;
}

const slots: Slot[] = [];
const free: Slot[] = [];
const waiters: ((slot: Slot) => void)[] = [];

function grow(): Slot {
  const buffer = new SharedArrayBuffer(SLOT_BYTES);
  const slot = { index: slots.length, buffer, bytes: new Uint8Array(buffer) };
  slots.push(slot);
  return slot;
}

/** A free slot; `held`: how many the caller holds already (below two it never waits). */
export async function acquireSlot(held: number): Promise<Slot> {
  const slot = free.pop();
  if (slot !== undefined) return slot;
  if (slots.length < POOL_SLOTS || held < 2) return grow();
  return new Promise<Slot>((resolve) => waiters.push(resolve));
}

export function releaseSlot(slot: Slot): void {
  const waiter = waiters.shift();
  if (waiter !== undefined) waiter(slot);
  else free.push(slot);
}

/** Slots in the pool and free ones (tests). */
export function slotCounts(): { slots: number; free: number } {
  return { slots: slots.length, free: free.length };
}

/** Size of the arenas a chunked put copies chunks into for a driver batch (see ChunkArena). */
export const ARENA_BYTES = 4 * 1024 * 1024;

/**
 * Copies of chunks for a driver's batch, cut from 4 MiB arenas (one allocation per arena instead
 * of one per chunk: a 256 MB put made ~3,000 mmap/munmap pairs copying chunk by chunk). An arena is
 * never reused: it is freed once no copy cut from it is referenced any more. So a copy stays valid
 * however long its holder keeps it, but keeping one small copy keeps its whole arena alive: it is
 * used only for a batch, whose driver writes what it is given and drops it. Consecutive copies are
 * adjacent in their arena, so a batch can write them with one call.
 */
export class ChunkArena {
  #arena = new Uint8Array(0);
  #used = 0;

  /** A copy of `bytes`, or of the parts in order (their sizes adding up to `size`). */
  copy(parts: readonly Uint8Array[], size: number): Uint8Array {
    if (size > ARENA_BYTES) return copyParts(parts, size);
    if (this.#used + size > this.#arena.byteLength) {
      this.#arena = new Uint8Array(ARENA_BYTES);
      this.#used = 0;
    }
    const out = this.#arena.subarray(this.#used, this.#used + size);
    this.#used += size;
    return concatInto(out, parts);
  }
}

/** A copy of the parts in order (sizes adding up to `size`) in an allocation of its own. */
export function copyParts(parts: readonly Uint8Array[], size: number): Uint8Array {
  return concatInto(new Uint8Array(size), parts);
}

function concatInto(out: Uint8Array, parts: readonly Uint8Array[]): Uint8Array {
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
