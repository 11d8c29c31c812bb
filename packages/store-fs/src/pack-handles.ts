import { constants, fstatSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

/** At most this many pack files are kept open per driver (more only while that many reads are in flight). */
export const PACK_HANDLES_MAX = 12;
/** A pack handle unused for this long is closed. */
export const PACK_HANDLE_IDLE_MS = 1000;

interface Slot {
  readonly handle: Promise<FileHandle>;
  /** Reads using the handle right now: it is closed only once none is. */
  users: number;
  lastUsed: number;
  /** Out of the cache (evicted, idle, the pack removed, or the driver closed): closed when its last user is done. */
  dropped: boolean;
}

/**
 * Open read handles of pack files, kept between chunk reads (a chunked artifact reads many chunks of one pack
 * in a row). Bounded (least recently used closed first), closed after PACK_HANDLE_IDLE_MS unused, on `drop`
 * and on `closeAll`. The idle timer is unref'd: it never keeps a process alive (exit closes the fds anyway).
 *
 * A pack's bytes never change once it is published (content-addressed chunks, checked by hash on read), so
 * an old handle reads exactly what a fresh open would. A pack unlinked since it was opened (another process
 * removed it: all its keys were dead) reads as gone, as a failed open would: see `use`.
 */
export class PackHandles {
  /** How many times a pack file was opened (for tests and benchmarks). */
  opens = 0;
  readonly #slots = new Map<string, Slot>(); // in order of last use: the first is the least recently used
  #timer: NodeJS.Timeout | undefined;

  /**
   * Runs `read` with an open handle of the pack at `path`. Undefined when the pack is gone: not there at open
   * (ENOENT), or unlinked since its handle was opened (its link count is 0). Other open errors are thrown.
   */
  async use<T>(path: string, read: (handle: FileHandle) => Promise<T>): Promise<T | undefined> {
    let slot = this.#slots.get(path);
    if (slot === undefined) {
      this.opens++;
      const handle = open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      slot = { handle, users: 0, lastUsed: Date.now(), dropped: false };
      const opened = slot;
      handle.catch(() => this.#forget(path, opened)); // a failed open is not cached (the caller sees the error)
    } else {
      this.#slots.delete(path);
    }
    this.#slots.set(path, slot);
    slot.users++;
    try {
      let handle: FileHandle;
      try {
        handle = await slot.handle;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      if (fstatSync(handle.fd).nlink === 0) {
        this.drop(path);
        return undefined;
      }
      return await read(handle);
    } finally {
      slot.users--;
      slot.lastUsed = Date.now();
      if (slot.dropped) this.#closeIfUnused(slot);
      else {
        this.#trim();
        this.#arm();
      }
    }
  }

  /** Closes the handle of `path` (once no read uses it): this driver removed the pack, or forgot it. */
  drop(path: string): void {
    const slot = this.#slots.get(path);
    if (slot !== undefined) this.#forget(path, slot);
  }

  /** Closes every handle (each once no read uses it); resolves when the unused ones are closed. */
  async closeAll(): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [path, slot] of [...this.#slots]) {
      const closed = this.#forget(path, slot);
      if (closed !== undefined) closing.push(closed);
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await Promise.all(closing);
  }

  get size(): number {
    return this.#slots.size;
  }

  #forget(path: string, slot: Slot): Promise<void> | undefined {
    if (this.#slots.get(path) === slot) this.#slots.delete(path);
    slot.dropped = true;
    return this.#closeIfUnused(slot);
  }

  #closeIfUnused(slot: Slot): Promise<void> | undefined {
    if (slot.users > 0) return undefined;
    return slot.handle
      .then(
        (h) => h.close(),
        () => undefined,
      )
      .catch(() => undefined); // closing twice, or a close error of a read-only fd: nothing to keep
  }

  /** Closes the least recently used unused handles beyond the bound. */
  #trim(): void {
    if (this.#slots.size <= PACK_HANDLES_MAX) return;
    for (const [path, slot] of [...this.#slots]) {
      if (this.#slots.size <= PACK_HANDLES_MAX) return;
      if (slot.users === 0) this.#forget(path, slot);
    }
  }

  #arm(): void {
    if (this.#timer !== undefined || this.#slots.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const now = Date.now();
      for (const [path, slot] of [...this.#slots])
        if (slot.users === 0 && now - slot.lastUsed >= PACK_HANDLE_IDLE_MS) this.#forget(path, slot);
      this.#arm();
    }, PACK_HANDLE_IDLE_MS / 2);
    this.#timer.unref();
  }
}
