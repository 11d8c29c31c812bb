import { constants, lstatSync, type Stats } from "node:fs";
import { open, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { ArefError } from "@artifact-refs/schema";
import type { DriverEntry } from "@artifact-refs/store";
import { errnoOf, fsError } from "./errors.js";
import { FILE_MODE, irregularKind, syncDir, touch } from "./files.js";
import { DIRECTORY_SETTLE_MS } from "./dir-cache.js";
import { DeadLog } from "./dead-log.js";
import { decompress } from "./gzip.js";
import { PackHandles } from "./pack-handles.js";
import {
  DEAD_SUFFIX,
  PACK_DIR,
  PACK_SUFFIX,
  TRAILER_BYTES,
  deadLine,
  decodeIndex,
  decodeTrailer,
  type DeadOp,
  type PackEntry,
} from "./pack-format.js";

/** The most bytes `readMany` reads at once (blobs back to back beyond it take another read). */
export const READ_RUN_MAX_BYTES = 4 * 1024 * 1024;

interface Pack {
  name: string;
  path: string;
  gzip: boolean;
  entries: Map<string, PackEntry>;
  log: DeadLog;
}

/**
 * The packs of one store as this driver instance knows them: an index from blob id to where it is packed,
 * loaded lazily from the packs' trailers and re-read when the packs directory changes (another process
 * may add or remove packs). Misses that matter (a read, a delete, a listing) always re-read the directory;
 * a put's existence check trusts the directory's unchanged time (a pack missed there only means a second copy).
 */
export class Packs {
  readonly root: string;
  readonly dir: string;
  readonly #fsync: boolean;
  readonly #packs = new Map<string, Pack>();
  readonly #byId = new Map<string, Pack[]>();
  /** Names seen to be unreadable packs (not re-read each time). */
  readonly #broken = new Set<string>();
  #dirStamp = "";
  /** The directory had been unchanged for DIRECTORY_SETTLE_MS when last read. */
  #settled = false;
  #syncing: Promise<void> | undefined;
  /** Open pack files kept between chunk reads. */
  readonly handles = new PackHandles();

  constructor(root: string, fsync: boolean) {
    this.root = root;
    this.dir = join(root, PACK_DIR);
    this.#fsync = fsync;
  }

  /** True when no pack is known (the common case of a small store: everything else can be skipped). */
  get empty(): boolean {
    return this.#packs.size === 0;
  }

  clear(): void {
    void this.handles.closeAll();
    this.#packs.clear();
    this.#byId.clear();
    this.#broken.clear();
    this.#dirStamp = "";
    this.#settled = false;
  }

  /** Forgets every pack and closes the open pack files (the driver's close). */
  async close(): Promise<void> {
    this.clear();
    await this.handles.closeAll();
  }

  /** Adds a pack this driver just published (no need to read back its index). */
  added(name: string, entries: readonly PackEntry[], gzip: boolean): void {
    this.#add({
      name,
      path: join(this.dir, name),
      gzip,
      entries: new Map(entries.map((e) => [e.id, e])),
      log: this.#log(name),
    });
  }

  /** Re-reads the packs directory when it changed (or always, with `force`). */
  async sync(force: boolean): Promise<void> {
    while (this.#syncing) await this.#syncing;
    let stats: Stats | undefined;
    try {
      stats = lstatSync(this.dir, { throwIfNoEntry: false });
    } catch (error) {
      throw fsError(error, "read", this.dir, this.root);
    }
    if (stats === undefined) {
      if (this.#packs.size > 0) this.clear();
      return;
    }
    if (!stats.isDirectory()) throw this.#notADirectory(irregularKind(stats));
    const stamp = `${stats.ino}:${stats.mtimeMs}:${stats.ctimeMs}`;
    // Unchanged since the last read: enough for a put's check (a pack missed there only means a second
    // copy), and for everything else once the directory had been quiet for DIRECTORY_SETTLE_MS when it
    // was read (a coarse clock cannot then hide a later change: it gets a later time).
    if (stamp === this.#dirStamp && (!force || this.#settled)) return;
    const settled = Date.now() - Math.max(stats.mtimeMs, stats.ctimeMs) >= DIRECTORY_SETTLE_MS;
    this.#syncing = this.#readDir(stamp, settled).finally(() => {
      this.#syncing = undefined;
    });
    await this.#syncing;
  }

  /** Something else where the packs directory belongs: every blob lookup that reaches the packs refuses to use it. */
  #notADirectory(kind: string): ArefError {
    return new ArefError(
      "IO_ERROR",
      `${this.dir} is a ${kind}, not the directory this store keeps its chunk packs in: refusing to follow or use it`,
      {
        hint: `something other than artifact-refs wrote it; remove it by hand (rm ${JSON.stringify(this.dir)}), then run \`aref verify\``,
        details: { path: this.dir, irregular: kind },
      },
    );
  }

  async #readDir(stamp: string, settled: boolean): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith(PACK_SUFFIX));
    } catch (error) {
      if (errnoOf(error) === "ENOENT") {
        this.clear();
        return;
      }
      throw fsError(error, "read", this.dir, this.root);
    }
    const present = new Set(names);
    for (const name of [...this.#packs.keys()]) if (!present.has(name)) this.#remove(name);
    for (const name of names) {
      if (this.#packs.has(name) || this.#broken.has(name)) continue;
      const pack = await this.#load(name);
      if (pack === undefined) this.#broken.add(name);
      else this.#add(pack);
    }
    this.#dirStamp = stamp;
    this.#settled = settled;
  }

  async #load(name: string): Promise<Pack | undefined> {
    const path = join(this.dir, name);
    let handle;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === "ENOENT") return undefined;
      if (errno === "ELOOP") return undefined; // a planted symlink: never followed, its keys read as missing
      throw fsError(error, "read", path, this.root);
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size < TRAILER_BYTES) return undefined;
      const trailer = Buffer.alloc(TRAILER_BYTES);
      await handle.read(trailer, 0, TRAILER_BYTES, stats.size - TRAILER_BYTES);
      const t = decodeTrailer(trailer, stats.size);
      if (t === undefined) return undefined;
      const index = Buffer.alloc(stats.size - TRAILER_BYTES - t.indexOffset);
      await handle.read(index, 0, index.byteLength, t.indexOffset);
      const entries = decodeIndex(index, t.count, t.indexOffset, t.digest);
      if (entries === undefined) return undefined;
      return { name, path, gzip: t.gzip, entries: new Map(entries.map((e) => [e.id, e])), log: this.#log(name) };
    } catch (error) {
      throw fsError(error, "read", path, this.root);
    } finally {
      await handle.close();
    }
  }

  #log(name: string): DeadLog {
    return new DeadLog(join(this.dir, name.slice(0, -PACK_SUFFIX.length) + DEAD_SUFFIX));
  }

  #add(pack: Pack): void {
    this.#packs.set(pack.name, pack);
    for (const id of pack.entries.keys()) {
      const list = this.#byId.get(id);
      if (list === undefined) this.#byId.set(id, [pack]);
      else list.push(pack);
    }
  }

  #remove(name: string): void {
    const pack = this.#packs.get(name);
    if (pack === undefined) return;
    this.handles.drop(pack.path);
    this.#packs.delete(name);
    for (const id of pack.entries.keys()) {
      const list = this.#byId.get(id)?.filter((p) => p !== pack);
      if (list === undefined || list.length === 0) this.#byId.delete(id);
      else this.#byId.set(id, list);
    }
  }

  /** The packs holding `id` whose copy is not dead (re-reading their dead logs). */
  /** Live packs holding `id`; each pack's dead log is read again unless it is in `refreshed` (then added there). */
  #holders(id: string, refreshed?: Set<Pack>): Pack[] {
    const list = this.#byId.get(id) ?? [];
    return list.filter((pack) => {
      if (refreshed?.has(pack) !== true) {
        pack.log.refresh(this.root);
        refreshed?.add(pack);
      }
      return !pack.log.dead.has(id);
    });
  }

  async #holdersAfterSync(id: string): Promise<Pack[]> {
    await this.sync(false);
    const found = this.#holders(id);
    if (found.length > 0) return found;
    await this.sync(true); // a miss that matters: the directory's time may be too coarse to show a new pack
    return this.#holders(id);
  }

  /**
   * The existence check of a put: true when `id` is packed, alive, and its pack's time was just moved to now
   * (the refresh that keeps a re-used blob out of gc's reach). The dead log is read again after the touch:
   * a gc deciding this key is judged on the time it reads after logging `?`, so either it sees our touch
   * (and keeps the key) or its `?` is in the log when we look (and we store the blob anew instead).
   */
  async refresh(id: string): Promise<boolean> {
    await this.sync(false);
    for (const pack of this.#byId.get(id) ?? []) {
      pack.log.refresh(this.root);
      if (pack.log.dead.has(id) || pack.log.isPending(id)) continue;
      let touched: boolean;
      try {
        touched = await touch(pack.path);
      } catch (error) {
        throw fsError(error, "write", pack.path, this.root);
      }
      if (!touched) {
        this.#remove(pack.name);
        continue;
      }
      pack.log.refresh(this.root);
      if (!pack.log.dead.has(id) && !pack.log.isPending(id)) return true;
    }
    return false;
  }

  /** The blob's bytes from a pack, or undefined when no live pack holds it. */
  async read(id: string): Promise<Uint8Array | undefined> {
    let holders = await this.#holdersAfterSync(id);
    for (let attempt = 0; attempt < 2 && holders.length > 0; attempt++) {
      for (const pack of holders) {
        const bytes = await this.#readAt(pack, pack.entries.get(id)!);
        if (bytes !== undefined) return pack.gzip ? decompress(bytes) : bytes;
        this.#remove(pack.name); // removed by another process meanwhile
      }
      await this.sync(true); // look again: the blob may be in a pack published meanwhile
      holders = this.#holders(id);
    }
    return undefined;
  }

  /**
   * The bytes of each of `ids` found packed in a live pack this instance already knows (undefined for the
   * others: the caller reads those one by one, which looks harder). Blobs stored back to back in one pack
   * are read with one read of at most READ_RUN_MAX_BYTES; the values are views of that read's buffer. A short
   * read (a torn pack) gives short values (their hash check fails them), never bytes of another blob.
   */
  async readMany(ids: readonly (string | undefined)[]): Promise<(Uint8Array | undefined)[]> {
    await this.sync(false);
    const out: (Uint8Array | undefined)[] = ids.map(() => undefined);
    const refreshed = new Set<Pack>();
    const found = ids.map((id) => {
      const pack = id === undefined ? undefined : this.#holders(id, refreshed)[0];
      return pack === undefined ? undefined : { pack, entry: pack.entries.get(id!)! };
    });
    const runs: { pack: Pack; at: number[] }[] = [];
    let last: { pack: Pack; at: number[]; end: number; bytes: number } | undefined;
    found.forEach((f, i) => {
      if (f === undefined) return;
      const { pack, entry } = f;
      if (
        last !== undefined &&
        last.pack === pack &&
        last.end === entry.offset &&
        last.bytes + entry.stored <= READ_RUN_MAX_BYTES
      ) {
        last.at.push(i);
        last.end += entry.stored;
        last.bytes += entry.stored;
        return;
      }
      last = { pack, at: [i], end: entry.offset + entry.stored, bytes: entry.stored };
      runs.push(last);
    });
    await Promise.all(
      runs.map(async ({ pack, at }) => {
        const entries = at.map((i) => found[i]!.entry);
        const start = entries[0]!.offset;
        const final = entries[entries.length - 1]!;
        const run = await this.#readRange(pack, start, final.offset + final.stored - start);
        if (run === undefined) return; // the pack is gone: left to the one-by-one read
        for (const [k, i] of at.entries()) {
          const e = entries[k]!;
          const from = Math.min(e.offset - start, run.byteLength);
          const bytes = run.subarray(from, Math.min(from + e.stored, run.byteLength));
          out[i] = pack.gzip ? await decompress(bytes) : bytes;
        }
      }),
    );
    return out;
  }

  async #readAt(pack: Pack, entry: PackEntry): Promise<Uint8Array | undefined> {
    return this.#readRange(pack, entry.offset, entry.stored);
  }

  async #readRange(pack: Pack, offset: number, length: number): Promise<Buffer | undefined> {
    try {
      return await this.handles.use(pack.path, async (handle) => {
        const out = Buffer.allocUnsafe(length);
        let done = 0;
        while (done < length) {
          const { bytesRead } = await handle.read(out, done, length - done, offset + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return done === length ? out : out.subarray(0, done); // short: the hash check fails it
      });
    } catch (error) {
      throw fsError(error, "read", pack.path, this.root);
    }
  }

  /** Size and time (its pack's) of a packed blob, or undefined. */
  async head(key: string, id: string): Promise<DriverEntry | undefined> {
    // A pack already known to hold it, still there, answers without re-reading the directory's
    // time (a chunked put heads each of its chunks after its reference: one stat fewer per chunk).
    // Only a miss needs the directory: a pack published since may hold it.
    for (const pack of this.#holders(id)) {
      const stats = await this.#packStats(pack);
      if (stats !== undefined) return { key, size: pack.entries.get(id)!.logical, modifiedAt: stats.mtime };
    }
    for (const pack of await this.#holdersAfterSync(id)) {
      const stats = await this.#packStats(pack);
      if (stats === undefined) continue;
      return { key, size: pack.entries.get(id)!.logical, modifiedAt: stats.mtime };
    }
    return undefined;
  }

  /**
   * Of `ids` (packed in the pack named `name`), those without a live copy there: all of them when the
   * pack is gone (or no longer known), else those its dead log says are deleted. One lstat of the
   * pack and one look at its dead log for all of them (a chunked put checks its chunks this way).
   */
  async deadIn(name: string, ids: readonly string[]): Promise<string[]> {
    const pack = this.#packs.get(name);
    if (pack === undefined || (await this.#packStats(pack)) === undefined) return [...ids];
    pack.log.refresh(this.root);
    return ids.filter((id) => pack.log.dead.has(id));
  }

  /** Synchronous (answered from the inode cache): a chunked put heads each of its thousands of chunks after its reference. */
  async #packStats(pack: Pack): Promise<Stats | undefined> {
    let stats: Stats | undefined;
    try {
      stats = lstatSync(pack.path, { throwIfNoEntry: false });
    } catch (error) {
      throw fsError(error, "read", pack.path, this.root);
    }
    if (stats === undefined) this.#remove(pack.name);
    return stats;
  }

  /**
   * Deletes every live packed copy of `id` (see DeadLog); with `since`, only copies whose pack was last
   * modified before it. A pack whose keys are all dead is removed.
   */
  async delete(id: string, since: Date | undefined): Promise<"deleted" | "kept" | "absent"> {
    let outcome: "deleted" | "kept" | "absent" = "absent";
    for (const pack of await this.#holdersAfterSync(id)) {
      let op: DeadOp = "!";
      if (since !== undefined) {
        await this.#append(pack, "?", id);
        const stats = await this.#packStats(pack);
        if (stats === undefined) continue; // removed meanwhile: nothing left to delete there
        op = stats.mtime < since ? "-" : "+";
      }
      await this.#append(pack, op, id);
      if (op === "+") {
        outcome = "kept";
        continue;
      }
      if (outcome === "absent") outcome = "deleted";
      await this.#removeIfAllDead(pack);
    }
    return outcome;
  }

  /** One O_APPEND write of one line. The log stays 0600 even under a umask that strips the owner's bits (it is appended to again). */
  async #append(pack: Pack, op: DeadOp, id: string): Promise<void> {
    let handle;
    try {
      handle = await open(
        pack.log.path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        FILE_MODE,
      );
      await handle.write(deadLine(op, id));
      if (((await handle.stat()).mode & 0o777) !== FILE_MODE) await handle.chmod(FILE_MODE);
    } catch (error) {
      throw fsError(error, "write", pack.log.path, this.root);
    } finally {
      await handle?.close();
    }
  }

  async #removeIfAllDead(pack: Pack): Promise<void> {
    pack.log.refresh(this.root);
    for (const id of pack.entries.keys()) if (!pack.log.dead.has(id)) return;
    // Every key is dead for good (no put counts a dead copy as stored), so nothing can need this pack.
    for (const path of [pack.path, pack.log.path]) {
      try {
        await unlink(path);
      } catch (error) {
        if (errnoOf(error) !== "ENOENT") throw fsError(error, "write", path, this.root);
      }
    }
    this.#remove(pack.name);
    if (this.#fsync) await syncDir(this.dir).catch(() => undefined);
  }

  /**
   * Every live packed blob whose key starts with `prefix` (keyed by key; size and its pack's time).
   * Always re-reads the directory: a listing must see every pack published before it started.
   */
  async entries(prefix: string, keyOf: (id: string) => string): Promise<Map<string, DriverEntry>> {
    await this.sync(true);
    const out = new Map<string, DriverEntry>();
    for (const pack of [...this.#packs.values()]) {
      const stats = await this.#packStats(pack);
      if (stats === undefined) continue;
      pack.log.refresh(this.root);
      for (const [id, entry] of pack.entries) {
        if (pack.log.dead.has(id)) continue;
        const key = keyOf(id);
        if (!key.startsWith(prefix)) continue;
        const seen = out.get(key);
        if (seen === undefined || seen.modifiedAt < stats.mtime)
          out.set(key, { key, size: entry.logical, modifiedAt: stats.mtime });
      }
    }
    return out;
  }

  /** Dead logs whose pack is gone (a delete that crashed between its two unlinks), removed unless `dryRun`. */
  async orphanLogs(dryRun: boolean): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return [];
      throw fsError(error, "read", this.dir, this.root);
    }
    const packs = new Set(names.filter((n) => n.endsWith(PACK_SUFFIX)));
    const orphans = names.filter(
      (n) => n.endsWith(DEAD_SUFFIX) && !packs.has(n.slice(0, -DEAD_SUFFIX.length) + PACK_SUFFIX),
    );
    if (!dryRun) for (const name of orphans) await unlink(join(this.dir, name)).catch(() => undefined);
    return orphans.map((n) => `${PACK_DIR}/${n}`);
  }
}
