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
