import { constants, lstatSync, type Stats } from "node:fs";
import { link, lstat, open, rename, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ArefError, parseWith } from "@artifact-refs/schema";
import {
  assertValidKey,
  assertValidListPrefix,
  type Driver,
  type DriverBatch,
  type DriverEntry,
} from "@artifact-refs/store";
import { z } from "zod";
import { errnoOf, fsError } from "./errors.js";
import { FileMaker, ScratchNames, assertRealDirs, irregularError, irregularKind, syncDir, touch } from "./files.js";
import { DirectoryCache, type ListingWork } from "./dir-cache.js";
import { compress, decompress } from "./gzip.js";
import { GZ_SUFFIX, locate, type Location } from "./paths.js";
import { listKeys, logicalSize, sweepScratch } from "./walk.js";
import { PackBatch } from "./pack-batch.js";
import { Packs } from "./packs.js";
import { ShardDirs } from "./shard-dirs.js";

export const FsDriverOptionsSchema = z
  .object({
    root: z
      .string()
      .min(1, "root must not be empty")
      .refine((s) => !s.includes("\u0000"), "root must not contain a NUL character"),
    gzip: z.boolean().optional(),
    fsync: z.boolean().optional(),
  })
  .strict();

export interface FsDriverOptions {
  /** The store's directory; created (mode 0700) on the first write. Relative paths resolve against the working directory. */
  root: string;
  /** Store blobs (keys under `blobs/`) gzip-compressed as `<key>.gz`. Reads find either form whatever this says. Default false. */
  gzip?: boolean;
  /** fsync each new file and its directory before a write returns (crash-safe). Default true. */
  fsync?: boolean;
}

/** Temp and trash files younger than this are never swept, whatever the caller asks: a write or delete may still be using them. */
export const SCRATCH_MIN_AGE_MS = 1_000;

/** How often a write retries when its directory or temp file vanished under it (another process's sweep). */
const WRITE_ATTEMPTS = 3;

/**
 * A synchronous lstat (answered from the dentry cache in microseconds, no error allocated for a
 * missing file); undefined when there is nothing usable there (the write that follows names the problem).
 */
function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

const BLOB_KEY_RE = /^blobs\/sha256\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/;

/** The id of a well-formed blob key (the only keys a pack holds), else undefined. */
function packableId(key: string): string | undefined {
  const m = BLOB_KEY_RE.exec(key);
  return m && m[3]!.startsWith(m[1]! + m[2]!) ? m[3] : undefined;
}

const blobKeyOf = (id: string) => `blobs/sha256/${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;

/** True when a listing of `prefix` can reach blob keys (so packed blobs belong in it). */
const reachesBlobs = (prefix: string) => "blobs/sha256/".startsWith(prefix) || prefix.startsWith("blobs/sha256/");

const view = (buffer: Uint8Array) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);

/**
 * The filesystem driver. Keys map to files under `root`; blobs are sharded by the
 * store's key layout (`blobs/sha256/ab/cd/<hex>`), metadata lives apart under `meta/`.
 *
 * Crash safety: every write goes to a temp file in the final file's own directory
 * (same file system, so the publish step is atomic), is fsynced, then published with
 * `link` (create-without-overwrite: exactly one of several concurrent creators wins,
 * and an existing file is never replaced) or `rename` (atomic replace); the directory is
 * fsynced after. Readers only ever open final names, so they never see a partial file.
 */
export class FsDriver implements Driver {
  readonly kind = "fs";
  readonly location: string;
  readonly root: string;
  readonly gzip: boolean;
  readonly fsync: boolean;
  readonly #files: FileMaker;
  readonly #rootUrl: string;
  readonly #names = new ScratchNames();
  /** Directories below the root seen to be real directories (not symlinks): checked once per instance. */
  readonly #realDirs = new Set<string>();
  /** Sorted snapshots of quiet directories, re-used by listings while the directory is unchanged. */
  readonly #dirs: DirectoryCache;
  /** Blobs written in packs by `openBatch` (see pack-format.ts), found after their loose file. */
  readonly #packs: Packs;

  constructor(options: FsDriverOptions) {
    const parsed = parseWith(FsDriverOptionsSchema, options, "FsDriver options", "CONFIG_INVALID");
    this.root = resolve(parsed.root);
    this.location = this.root;
    this.gzip = parsed.gzip ?? false;
    this.fsync = parsed.fsync ?? true;
    this.#files = new FileMaker(this.root, (dir) => this.#realDirs.add(dir), this.fsync);
    this.#dirs = new DirectoryCache(this.root);
    this.#packs = new Packs(this.root, this.fsync);
    this.#rootUrl = pathToFileURL(this.root).href.replace(/\/$/, "");
  }

  async putIfAbsent(key: string, data: Uint8Array): Promise<{ created: boolean }> {
    if (await this.#refreshExisting(key)) return { created: false };
    const loc = await this.#locateReal(key); // no symlinked directory on the way to where the file goes
    const bytes = loc.compressed ? await compress(data) : data;
    const created = await this.#publish(loc, bytes, "link");
    if (!created) await this.#touch(loc.path); // lost the race: refresh the winner's time
    return { created };
  }

  /**
   * Writes many new blobs at once: a chunked put's chunks go into a few pack files instead of a file
   * each (see PackBatch). Every blob stays a key of its own for get, head, list, delete and putIfAbsent.
   */
  openBatch(): Required<DriverBatch> {
    const shards = new ShardDirs(this.root);
    return new PackBatch({
      root: this.root,
      fsync: this.fsync,
      gzip: this.gzip,
      packs: this.#packs,
      files: this.#files,
      names: this.#names,
      packableId,
      refreshExisting: (key) => this.#refreshExisting(key, shards),
      putIfAbsent: (key, data) => this.putIfAbsent(key, data),
      head: (key) => this.head(key),
    });
  }

  /**
   * putIfAbsent's check: true when `key` is stored (a loose file, or a live packed copy), its time
   * now refreshed. `shards` (a pack batch's): loose forms are looked for only in shard directories it saw.
   */
  async #refreshExisting(key: string, shards?: ShardDirs): Promise<boolean> {
    const id = packableId(key);
    if (id !== undefined && shards !== undefined && !shards.mayHold(id)) return this.#packs.refresh(id);
    const loc = this.#locate(key);
    // Already stored (in either gzip form)? Refresh its time, which keeps a re-used blob out
    // of gc's reach, and stop. The existence check is a synchronous stat on purpose: it is
    // answered from the kernel's dentry cache in microseconds and, unlike an async call that
    // fails with ENOENT (the common case: new content, often in a shard directory that does not
    // exist), allocates no error and costs no thread-pool round trip. Only a file found is acted
    // on, after checking that no directory on its way is a symlink (a planted link could lead
    // outside the store). A file removed between the check and the refresh is created anew.
    for (const path of this.#forms(loc)) {
      const found = lstatOrNone(path);
      if (found === undefined) continue;
      await this.#locateReal(key);
      // A planted symlink or FIFO is removed (the link itself, never its target) and the content written anew.
      if (!found.isFile() && !found.isDirectory()) await this.#unlinkIfExists(path);
      else if (await this.#touch(path)) return true;
    }
    return id !== undefined && (await this.#packs.refresh(id));
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const loc = await this.#locateReal(key);
    const bytes = loc.compressed ? await compress(data) : data;
    await this.#publish(loc, bytes, "rename");
    // A blob replaced in one form must not leave a stale (maybe corrupt) copy in the other:
    // a driver with the other gzip setting would read that one first.
    if (loc.alt !== undefined) await this.#unlinkIfExists(loc.alt);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const loc = await this.#locateReal(key);
    for (const path of this.#forms(loc)) {
      const raw = await this.#readRegular(path);
      if (raw === "absent") continue;
      if (raw === "not-dir") break;
      return view(path.endsWith(GZ_SUFFIX) ? await decompress(raw) : raw);
    }
    const id = packableId(key);
    const packed = id === undefined ? undefined : await this.#packs.read(id);
    return packed === undefined ? undefined : view(packed);
  }

  /**
   * Blobs packed next to each other in one pack come in one read (see Packs.readMany); every other key
   * (a loose file, a pack not known yet, a pack gone meanwhile) is read as `get` reads it.
   */
  async getMany(keys: readonly string[]): Promise<(Uint8Array | undefined)[]> {
    for (const key of keys) assertValidKey(key);
    const packed = await this.#packs.readMany(keys.map(packableId));
    return Promise.all(keys.map((key, i) => (packed[i] !== undefined ? view(packed[i]!) : this.get(key))));
  }

  /** Reads a regular file without following a symlink (O_NOFOLLOW) or blocking on a FIFO (O_NONBLOCK); anything else is IO_ERROR. */
  async #readRegular(path: string): Promise<Buffer | "absent" | "not-dir"> {
    let handle;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === "ENOENT") return "absent";
      if (errno === "ENOTDIR") return "not-dir";
      if (errno === "ELOOP") throw irregularError(path, "symbolic link", this.root);
      throw fsError(error, "read", path, this.root);
    }
    try {
      const stats = await handle.stat();
      if (stats.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
      if (!stats.isFile()) throw irregularError(path, irregularKind(stats), this.root);
      return await handle.readFile();
    } catch (error) {
      throw fsError(error, "read", path, this.root);
    } finally {
      await handle.close();
    }
  }

  async head(key: string): Promise<DriverEntry | undefined> {
    const { loc, dirExists } = await this.#locateDir(key);
    for (const path of dirExists ? this.#forms(loc) : []) {
      try {
        const stats = await lstat(path);
        if (stats.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
        if (!stats.isFile()) throw irregularError(path, irregularKind(stats), this.root);
        return { key, size: await logicalSize(path, stats), modifiedAt: stats.mtime };
      } catch (error) {
        const errno = errnoOf(error);
        if (errno === "ENOENT") continue;
        if (errno === "ENOTDIR") break;
        throw fsError(error, "read", path, this.root);
      }
    }
    const id = packableId(key);
    return id === undefined ? undefined : this.#packs.head(key, id);
  }

  async delete(key: string, options: { ifUnmodifiedSince?: Date } = {}): Promise<boolean> {
    const loc = await this.#locateReal(key);
    const since = options.ifUnmodifiedSince;
    let removed = false;
    let kept = false;
    for (const path of this.#forms(loc)) {
      const outcome =
        since === undefined
          ? (await this.#unlinkIfExists(path))
            ? "deleted"
            : "absent"
          : await this.#deleteIfOlder(loc, path, since);
      if (outcome === "deleted") removed = true;
      if (outcome === "kept") kept = true;
    }
    if (removed) this.#dirs.drop(loc.dir);
    if (removed && this.fsync) await this.#syncDir(loc.dir);
    const id = packableId(key);
    const packed = id === undefined ? "absent" : await this.#packs.delete(id, since);
    if (packed === "deleted") removed = true;
    if (packed === "kept") kept = true;
    return removed && !kept;
  }

  list(prefix: string): AsyncIterable<DriverEntry> {
    const loose = listKeys(this.root, prefix, this.#realDirs, this.#dirs);
    return reachesBlobs(prefix) ? this.#listWithPacks(prefix, loose) : loose;
  }

  /** Loose keys as they are walked, then the packed blobs that have no loose file (once each). */
  async *#listWithPacks(prefix: string, loose: AsyncIterable<DriverEntry>): AsyncIterable<DriverEntry> {
    assertValidListPrefix(prefix);
    const packed = await this.#packs.entries(prefix, blobKeyOf);
    for await (const entry of loose) {
      packed.delete(entry.key);
      yield entry;
    }
    yield* packed.values();
  }

  /** What this driver's listings have read so far: directories, entries, and directory snapshots re-used unchanged. */
  get listingWork(): Readonly<ListingWork> {
    return { ...this.#dirs.work };
  }

  uri(key: string): string {
    const loc = this.#locate(key);
    // Key characters ([A-Za-z0-9._:-] and '/') never need escaping in a file URL: only the
    // root does, once.
    return `${this.#rootUrl}/${loc.key}${loc.compressed ? GZ_SUFFIX : ""}`;
  }

  async sweepTemp(olderThanMs: number, options: { dryRun?: boolean } = {}): Promise<string[]> {
    if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
      throw new ArefError("INVALID_INPUT", `sweepTemp needs an age >= 0 in milliseconds, got ${String(olderThanMs)}`);
    }
    const dryRun = options.dryRun === true;
    const scratch = await sweepScratch(this.root, Math.max(olderThanMs, SCRATCH_MIN_AGE_MS), dryRun);
    return [...scratch, ...(await this.#packs.orphanLogs(dryRun))].sort();
  }

  async close(): Promise<void> {
    this.#files.clear();
    this.#realDirs.clear();
    this.#dirs.clear();
    await this.#packs.close();
  }

  #locate(key: string): Location {
    return locate(this.root, key, this.gzip);
  }

  /** Locates a key and checks that no directory on its way below the root is a symlink (a planted link would lead outside the store). */
  async #locateReal(key: string): Promise<Location> {
    return (await this.#locateDir(key)).loc;
  }

  /** #locateReal, also telling whether the key's directory exists (false: nothing is stored under it). */
  async #locateDir(key: string): Promise<{ loc: Location; dirExists: boolean }> {
    const loc = this.#locate(key);
    try {
      return { loc, dirExists: await assertRealDirs(this.root, loc.dir, this.#realDirs) };
    } catch (error) {
      throw fsError(error, "read", loc.dir, this.root);
    }
  }

  #forgetDirs(): void {
    this.#files.clear();
    this.#realDirs.clear();
  }

  /** The files a key may be stored in, the one this driver writes first. */
  #forms(loc: Location): string[] {
    return loc.alt === undefined ? [loc.path] : [loc.path, loc.alt];
  }

  async #touch(path: string): Promise<boolean> {
    try {
      return await touch(path);
    } catch (error) {
      throw fsError(error, "write", path, this.root);
    }
  }

  /**
   * Writes `bytes` to a fresh temp file next to the final file, then publishes it:
   * `link` creates the final name only if it does not exist (false when it does),
   * `rename` replaces it atomically. Retries when the directory or the temp file
   * vanished under us (removed by another process), so a sweep can never fail a write.
   */
  async #publish(loc: Location, bytes: Uint8Array, mode: "link" | "rename"): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const temp = this.#names.temp(loc.dir);
      try {
        await this.#files.ensureDir(loc.dir);
        await this.#files.writeNewFile(temp, bytes, this.fsync);
      } catch (error) {
        if (errnoOf(error) === "ENOENT" && attempt < WRITE_ATTEMPTS) {
          this.#forgetDirs(); // a directory we knew is gone: re-check them all
          continue;
        }
        throw fsError(error, "write", loc.dir, this.root); // name the directory, not our temp file
      }
      try {
        if (mode === "rename") {
          await rename(temp, loc.path);
        } else {
          try {
            await link(temp, loc.path);
          } finally {
            await unlink(temp).catch(() => undefined);
          }
        }
      } catch (error) {
        const errno = errnoOf(error);
        if (mode === "rename") await unlink(temp).catch(() => undefined);
        if (errno === "EEXIST" && mode === "link") return false;
        if (errno === "ENOENT" && attempt < WRITE_ATTEMPTS) {
          this.#forgetDirs(); // a directory we knew is gone: re-check them all
          continue;
        }
        throw fsError(error, "write", loc.path, this.root);
      }
      this.#dirs.drop(loc.dir);
      if (this.fsync) await this.#syncDir(loc.dir);
      return true;
    }
  }

  async #syncDir(dir: string): Promise<void> {
    try {
      await syncDir(dir);
    } catch (error) {
      throw fsError(error, "write", dir, this.root);
    }
  }

  async #unlinkIfExists(path: string): Promise<boolean> {
    try {
      await unlink(path);
      return true;
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === "ENOENT" || errno === "ENOTDIR") return false;
      throw fsError(error, "write", path, this.root);
    }
  }

  /**
   * Deletes `path` only if it was last modified before `since`, atomically with respect
   * to a concurrent putIfAbsent that re-uses the file (and so refreshes its time):
   *
   * 1. rename the file to a unique trash name in the same directory. From now on, a
   *    putIfAbsent's utimes finds no file and writes a fresh copy instead, so no refresh
   *    can land on the file we are judging: its time is frozen.
   * 2. read the trash file's mtime. A refresh that happened before step 1 is visible here.
   * 3. old enough: unlink the trash file. Too new: link it back to its name, unless a new
   *    file took that name meanwhile (EEXIST: keep the newcomer, same key, newer value),
   *    then unlink the trash name.
   *
   * Checking the time and then unlinking in place would leave a window in which a re-use
   * reports "already stored" and the blob is deleted right after. Readers may briefly see
   * a kept file as missing between steps 1 and 3; ArtifactStore treats a missing blob as
   * "store it again" when writing and gc only ever judges unreferenced blobs.
   */
  async #deleteIfOlder(loc: Location, path: string, since: Date): Promise<"deleted" | "kept" | "absent"> {
    const trash = this.#names.trash(loc.dir);
    try {
      await rename(path, trash);
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === "ENOENT" || errno === "ENOTDIR") return "absent";
      throw fsError(error, "write", path, this.root);
    }
    let modifiedAt: Date;
    try {
      modifiedAt = (await lstat(trash)).mtime;
    } catch (error) {
      throw fsError(error, "read", trash, this.root);
    }
    if (modifiedAt < since) {
      await this.#unlinkIfExists(trash);
      return "deleted";
    }
    try {
      await link(trash, path);
    } catch (error) {
      if (errnoOf(error) !== "EEXIST") throw fsError(error, "write", path, this.root);
    }
    await this.#unlinkIfExists(trash);
    return "kept";
  }
}
