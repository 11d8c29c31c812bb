import { lstat, rename, unlink, type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { fsError } from "./errors.js";
import { FILE_MODE, type FileMaker, type ScratchNames, irregularError, irregularKind, syncDir } from "./files.js";
import { compress } from "./gzip.js";
import { PACK_SUFFIX, encodeIndex, type PackEntry } from "./pack-format.js";
import type { Packs } from "./packs.js";
import type { DriverEntry } from "@artifact-refs/store";

/** New blobs held in memory before a batch starts a pack: a batch smaller than this is written as loose files. */
export const PACK_MIN_BLOBS = 32;
/** A pack is closed and published once it holds this many bytes (or PACK_MAX_BLOBS blobs); the batch goes on in a new one. */
export const PACK_MAX_BYTES = 64 * 1024 * 1024;
export const PACK_MAX_BLOBS = 4096;
/**
 * Consecutive blobs of a pack are gathered into one positional write of about this many bytes (one
 * system call and one thread-pool round trip for ~16 chunks of 64 KiB, instead of one each).
 * `AREF_STASH_GATHER=off` writes each blob on its own (benchmarks comparing both).
 */
export const GATHER_BYTES = 1024 * 1024;

/** What a batch needs from its driver. */
export interface BatchHost {
  root: string;
  fsync: boolean;
  gzip: boolean;
  packs: Packs;
  files: FileMaker;
  names: ScratchNames;
  /** The blob id of a key that may be packed (a well-formed blob key), else undefined. */
  packableId(key: string): string | undefined;
  /** putIfAbsent's existence check and refresh (loose file or live packed copy). */
  refreshExisting(key: string): Promise<boolean>;
  putIfAbsent(key: string, data: Uint8Array): Promise<{ created: boolean }>;
  head(key: string): Promise<DriverEntry | undefined>;
}

/** Keys `missing` looks up one by one at once (those it cannot answer from a pack of the batch). */
const HEADS_AT_ONCE = 4;

interface OpenPack {
  temp: string;
  handle: FileHandle;
  size: number;
  entries: PackEntry[];
  writes: Promise<unknown>[];
  /** Blobs placed in the pack and not written yet (adjacent views of one buffer merged), from offset `pendingAt`. */
  pending: Uint8Array[];
  pendingAt: number;
  /** The batch's writes not settled yet (every pack's), for `flushed`. */
  unsettled: Set<Promise<void>>;
  /** No more blobs go in (it is being published). */
  closed: boolean;
}

let packCounter = 0;

/**
 * A batch of new blobs written into pack files (see pack-format.ts): the chunks of one chunked put.
 * Blobs already stored (loose or packed, alive) are refreshed, not written again. The first
 * PACK_MIN_BLOBS new blobs wait in memory: a small batch ends up as loose files, like putIfAbsent
 * would write them. From then on blobs go to a temp pack file (positional writes, so the writes of
 * several adds run at once), which is published (index + trailer, fsync when on, rename to a unique
 * name, fsync of the directory) when it is full and at `commit`. Nothing of a pack is visible before
 * it is published; a crash leaves only its temp file, which sweepTemp removes.
 */
export class PackBatch {
  readonly #host: BatchHost;
  readonly #held: { key: string; id: string; data: Uint8Array }[] = [];
  readonly #ids = new Set<string>();
  readonly #published: Promise<void>[] = [];
  /** The pack each blob this batch published went into, by blob id. */
  readonly #packOf = new Map<string, string>();
  readonly #unsettled = new Set<Promise<void>>();
  /** The held blobs going into the first pack (their adds resolved already). */
  #moving: Promise<void> | undefined;
  #current: Promise<OpenPack> | undefined;
  #started = false;
  #commit: Promise<void> | undefined;
  /** Bytes gathered into one write (0: each blob written on its own). */
  readonly #gather = process.env.AREF_STASH_GATHER === "off" ? 0 : GATHER_BYTES;

  constructor(host: BatchHost) {
    this.#host = host;
  }

  async add(key: string, data: Uint8Array): Promise<{ created: boolean }> {
    if (this.#commit !== undefined) throw new Error("this batch is committed");
    const id = this.#host.packableId(key);
    if (id === undefined) return this.#host.putIfAbsent(key, data);
    if (this.#ids.has(id)) return { created: true }; // already in this batch
    if (await this.#host.refreshExisting(key)) return { created: false };
    if (this.#ids.has(id)) return { created: true };
    this.#ids.add(id);
    if (!this.#started && this.#held.length < PACK_MIN_BLOBS - 1) {
      this.#held.push({ key, id, data });
      return { created: true };
    }
    this.#started = true;
    const held = this.#held.splice(0);
    if (held.length > 0) {
      this.#moving = (async () => {
        for (const blob of held) await this.#append(blob.id, blob.data);
      })();
      await this.#moving;
    }
    await this.#append(id, data);
    return { created: true };
  }

  /**
   * Resolves once the batch holds none of the bytes given to the adds that resolved before this
   * call: blobs held back (a batch too small for a pack yet) are copied, queued bytes are written
   * (or failed: add and commit report that). The caller may then reuse those buffers (a chunked put
   * hands in views of its pooled buffers instead of a copy per chunk). Never rejects.
   */
  async flushed(): Promise<void> {
    for (const blob of this.#held) blob.data = blob.data.slice();
    await this.#moving?.catch(() => undefined);
    const pack = await this.#current?.catch(() => undefined);
    if (pack !== undefined && pack.pending.length > 0) flush(pack);
    await Promise.allSettled([...this.#unsettled]);
  }

  /** Publishes what was added (waits for it); safe to call again (the first call's outcome). */
  commit(): Promise<void> {
    this.#commit ??= this.#commitOnce();
    return this.#commit;
  }

  async #commitOnce(): Promise<void> {
    const held = this.#held.splice(0);
    // A small batch: loose files, at most 4 at once.
    for (let i = 0; i < held.length; i += 4)
      await Promise.all(held.slice(i, i + 4).map((b) => this.#host.putIfAbsent(b.key, b.data)));
    const current = this.#current;
    this.#current = undefined;
    if (current !== undefined) this.#close(current.then((pack) => pack));
    const outcomes = await Promise.allSettled(this.#published);
    const failed = outcomes.find((o) => o.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  /**
   * Of `keys` (added to this batch), those not stored any more, as `head` would find them: a key in a
   * pack this batch published is alive when that pack is still there and its dead log does not list
   * it (one look per pack); any other key, or one whose copy there is gone, gets a `head` of its own
   * (a loose file, a blob that was stored before, another copy elsewhere).
   */
  async missing(keys: readonly string[]): Promise<string[]> {
    const lookUp: string[] = [];
    const byPack = new Map<string, { key: string; id: string }[]>();
    for (const key of keys) {
      const id = this.#host.packableId(key);
      const name = id === undefined ? undefined : this.#packOf.get(id);
      if (name === undefined) lookUp.push(key);
      else {
        const list = byPack.get(name);
        if (list === undefined) byPack.set(name, [{ key, id: id! }]);
        else list.push({ key, id: id! });
      }
    }
    for (const [name, blobs] of byPack) {
      const dead = new Set(
        await this.#host.packs.deadIn(
          name,
          blobs.map((b) => b.id),
        ),
      );
      if (dead.size > 0) for (const b of blobs) if (dead.has(b.id)) lookUp.push(b.key);
    }
    const gone: string[] = [];
    for (let i = 0; i < lookUp.length; i += HEADS_AT_ONCE) {
      const part = lookUp.slice(i, i + HEADS_AT_ONCE);
      const entries = await Promise.all(part.map((key) => this.#host.head(key)));
      part.forEach((key, j) => {
        if (entries[j] === undefined) gone.push(key);
      });
    }
    return gone;
  }

  async #append(id: string, data: Uint8Array): Promise<void> {
    const stored = this.#host.gzip ? await compress(data) : data;
    let pack: OpenPack;
    for (;;) {
      this.#current ??= this.#open();
      pack = await this.#current;
      if (!pack.closed) break; // else it filled up while we waited: take the next one
    }
    // From here to the end of the block nothing awaits: the offset, the queueing and the full check are one step.
    const entry: PackEntry = { id, offset: pack.size, stored: stored.byteLength, logical: data.byteLength };
    pack.size += stored.byteLength;
    pack.entries.push(entry);
    queue(pack, stored);
    const full = pack.size >= PACK_MAX_BYTES || pack.entries.length >= PACK_MAX_BLOBS;
    // The blob is in the pack's write queue, which #publish writes and awaits. The add that fills a
    // gather waits for its write: the caller's bound on adds in flight then bounds the writes too.
    const write = full || pack.size - pack.pendingAt >= this.#gather ? flush(pack) : undefined;
    if (full) {
      this.#current = undefined; // full: the next blob starts a new pack
      pack.closed = true;
      this.#close(Promise.resolve(pack));
    }
    try {
      await write;
    } catch (error) {
      throw fsError(error, "write", pack.temp, this.#host.root);
    }
  }

  /** Closes a pack to new blobs and publishes it once its writes are done; `commit` reports the outcome. */
  #close(pending: Promise<OpenPack>): void {
    const published = pending.then((pack) => {
      pack.closed = true;
      return this.#publish(pack);
    });
    published.catch(() => undefined); // reported by commit
    this.#published.push(published);
  }

  async #open(): Promise<OpenPack> {
    const { packs, files, names } = this.#host;
    try {
      await files.ensureDir(packs.dir);
    } catch (error) {
      throw fsError(error, "write", packs.dir, this.#host.root);
    }
    try {
      // Never write through a link planted where the packs directory belongs (it could lead outside the store).
      const stats = await lstat(packs.dir);
      if (!stats.isDirectory()) throw irregularError(packs.dir, irregularKind(stats), this.#host.root);
    } catch (error) {
      throw fsError(error, "write", packs.dir, this.#host.root);
    }
    const temp = names.temp(packs.dir);
    try {
      const handle = await open(temp, "wx", FILE_MODE);
      return {
        temp,
        handle,
        size: 0,
        entries: [],
        writes: [],
        pending: [],
        pendingAt: 0,
        unsettled: this.#unsettled,
        closed: false,
      };
    } catch (error) {
      throw fsError(error, "write", packs.dir, this.#host.root);
    }
  }

  async #publish(pack: OpenPack): Promise<void> {
    const { packs, fsync, gzip, root } = this.#host;
    const name = `p-${Date.now().toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 8)}-${(packCounter++).toString(36)}${PACK_SUFFIX}`;
    try {
      flush(pack);
      await Promise.all(pack.writes); // a failed write fails the pack
      const tail = encodeIndex(pack.entries, pack.size, gzip);
      await pack.handle.write(tail, 0, tail.byteLength, pack.size);
      if (fsync) await pack.handle.datasync();
      await pack.handle.close();
      await rename(pack.temp, join(packs.dir, name)); // a unique name: never replaces anything
      if (fsync) await syncDir(packs.dir);
    } catch (error) {
      await pack.handle.close().catch(() => undefined);
      await unlink(pack.temp).catch(() => undefined);
      throw fsError(error, "write", pack.temp, root);
    }
    packs.added(name, pack.entries, gzip);
    for (const entry of pack.entries) this.#packOf.set(entry.id, name);
  }
}

/** Puts `bytes` at the end of the pack's write queue; a view adjacent to the last one's in the same buffer extends it. */
function queue(pack: OpenPack, bytes: Uint8Array): void {
  const last = pack.pending[pack.pending.length - 1];
  if (last !== undefined && last.buffer === bytes.buffer && last.byteOffset + last.byteLength === bytes.byteOffset)
    pack.pending[pack.pending.length - 1] = new Uint8Array(
      last.buffer,
      last.byteOffset,
      last.byteLength + bytes.byteLength,
    );
  else pack.pending.push(bytes);
}

/**
 * Writes the pack's queued blobs at their offset with one call (a short write is finished by more).
 * The promise is kept for #publish without its result: a write's result holds its buffers, and a
 * pack's worth of chunks must not stay in memory until the pack is published.
 */
function flush(pack: OpenPack): Promise<void> | undefined {
  const buffers = pack.pending;
  if (buffers.length === 0) return undefined;
  const at = pack.pendingAt;
  pack.pending = [];
  pack.pendingAt = pack.size;
  const write = writeAll(pack.handle, buffers, at);
  write.catch(() => undefined); // awaited by the add that filled it and by #publish
  pack.writes.push(write);
  const settled: Promise<void> = write.then(
    () => void pack.unsettled.delete(settled),
    () => void pack.unsettled.delete(settled),
  );
  pack.unsettled.add(settled);
  return write;
}

async function writeAll(handle: FileHandle, buffers: Uint8Array[], position: number): Promise<void> {
  let left = buffers;
  let at = position;
  for (;;) {
    const total = left.reduce((n, b) => n + b.byteLength, 0);
    const { bytesWritten } =
      left.length === 1 ? await handle.write(left[0]!, 0, total, at) : await handle.writev(left, at);
    if (bytesWritten >= total) return;
    if (bytesWritten <= 0) throw Object.assign(new Error("the disk took no bytes"), { code: "EIO" });
    at += bytesWritten;
    left = skipBytes(left, bytesWritten);
  }
}

function skipBytes(buffers: Uint8Array[], skip: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let left = skip;
  for (const b of buffers) {
    if (left >= b.byteLength) left -= b.byteLength;
    else {
      out.push(left > 0 ? b.subarray(left) : b);
      left = 0;
    }
  }
  return out;
}
