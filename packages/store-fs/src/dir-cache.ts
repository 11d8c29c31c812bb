import type { BigIntStats, Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { errnoOf, fsError } from "./errors.js";

/**
 * A directory whose last change (the later of mtime and ctime) is at least this old when it is
 * read may be remembered. Younger ones are read anew every time: a file system stamps changes
 * with a coarse clock (a kernel tick, 1 s on ext3, 2 s on FAT), so a change in the same tick as
 * the read could leave the directory's times unchanged; past this age any later change moves them.
 */
export const DIRECTORY_SETTLE_MS = 2_000;
/** Entries remembered over all directories (~100 bytes each, so ~10 MB): the least recently used directories go first beyond it. */
export const DIRECTORY_CACHE_ENTRIES = 100_000;
/**
 * Only directories of at least this many entries are remembered: a small one costs about as much
 * to read again as the stat that validates a snapshot, and a walk over many small directories
 * (gc over the blob shards) would otherwise fill the cache with names nobody lists twice.
 */
export const DIRECTORY_CACHE_MIN_ENTRIES = 500;

/** What a directory entry is, from its d_type (no stat). */
export type EntryKind = "dir" | "file" | "other";

/** One directory's entries, names sorted (code-unit order, like the key order of every driver). */
export interface DirSnapshot {
  names: string[];
  kinds: EntryKind[];
}

interface Cached extends DirSnapshot {
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** Work a driver's listings did (for tests and benchmarks). */
export interface ListingWork {
  /** Directories whose entries were read. */
  directoriesRead: number;
  /** Entries those directories held. */
  entriesRead: number;
  /** Listings of a directory answered from its unchanged snapshot. */
  snapshotsReused: number;
  /** Files stat'ed for the entries listings yielded (size and time). */
  filesStatted: number;
}

const kindOf = (entry: Dirent): EntryKind => (entry.isDirectory() ? "dir" : entry.isFile() ? "file" : "other");

/**
 * Sorted snapshots of the directories listings read, re-used while the directory is unchanged.
 * Before each use one `lstat` of the directory (nanosecond mtime and ctime, inode) tells whether
 * any entry was added, removed or renamed since; only directories that had settled when they were
 * read are remembered (see DIRECTORY_SETTLE_MS), so a listing never misses a file another process
 * (or this one) wrote. A busy directory is read anew each time, as before; a quiet one of 10,000
 * records costs one stat instead of a 10,000-entry read per listing, and a listing of a name prefix
 * finds its names by binary search instead of scanning them all.
 */
export class DirectoryCache {
  readonly work: ListingWork = { directoriesRead: 0, entriesRead: 0, snapshotsReused: 0, filesStatted: 0 };
  readonly #root: string;
  readonly #cached = new Map<string, Cached>();
  #entries = 0;

  constructor(root: string) {
    this.#root = root;
  }

  /** The directory's entries, sorted; none when it does not exist (or is not a directory). */
  async read(dir: string): Promise<DirSnapshot> {
    let stats: BigIntStats | undefined;
    try {
      stats = await lstat(dir, { bigint: true });
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === "ENOENT" || errno === "ENOTDIR" || errno === "ENAMETOOLONG") return { names: [], kinds: [] };
      throw fsError(error, "read", dir, this.#root);
    }
    if (!stats.isDirectory()) return { names: [], kinds: [] };
    const hit = this.#cached.get(dir);
    if (hit && hit.ino === stats.ino && hit.mtimeNs === stats.mtimeNs && hit.ctimeNs === stats.ctimeNs) {
      this.#cached.delete(dir); // re-insert: the map's order is least recently used first
      this.#cached.set(dir, hit);
      this.work.snapshotsReused++;
      return hit;
    }
    if (hit) this.#forget(dir, hit);
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === "ENOENT" || errno === "ENOTDIR" || errno === "ENAMETOOLONG") return { names: [], kinds: [] };
      throw fsError(error, "read", dir, this.#root);
    }
    this.work.directoriesRead++;
    this.work.entriesRead += entries.length;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const snapshot = { names: entries.map((e) => e.name), kinds: entries.map(kindOf) };
    // The times were read before the entries: a change after the stat moves them, so the snapshot
    // is only ever re-used for a directory that has not changed since it was stat'ed.
    const settled = BigInt(Date.now() - DIRECTORY_SETTLE_MS) * 1_000_000n;
    const worth = entries.length >= DIRECTORY_CACHE_MIN_ENTRIES && entries.length <= DIRECTORY_CACHE_ENTRIES;
    if (worth && stats.mtimeNs <= settled && stats.ctimeNs <= settled) {
      this.#cached.set(dir, { ...snapshot, ino: stats.ino, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs });
      this.#entries += entries.length;
      for (const [oldest, value] of this.#cached) {
        if (this.#entries <= DIRECTORY_CACHE_ENTRIES) break;
        this.#forget(oldest, value);
      }
    }
    return snapshot;
  }

  /** Forgets a directory this driver changed (its times would tell too; this frees the memory at once). */
  drop(dir: string): void {
    const hit = this.#cached.get(dir);
    if (hit) this.#forget(dir, hit);
  }

  clear(): void {
    this.#cached.clear();
    this.#entries = 0;
  }

  #forget(dir: string, value: Cached): void {
    this.#cached.delete(dir);
    this.#entries -= value.names.length;
  }
}

/** Index of the first name >= `start` in sorted `names`. */
export function lowerBound(names: string[], start: string): number {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (names[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
