import type { Dirent, Stats } from "node:fs";
import { lstat, readdir, unlink } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { DriverEntry } from "@artifact-refs/store";
import { errnoOf, fsError } from "./errors.js";
import { assertRealDirs, irregularKind } from "./files.js";
import { gzipLogicalSize } from "./gzip.js";
import { DirectoryCache, lowerBound } from "./dir-cache.js";
import { GZ_SUFFIX, isScratchName, keyOfFile, listingStart } from "./paths.js";
import { PACK_DIR } from "./pack-format.js";

const STAT_BATCH = 64;

/** The entries of a directory; none when it does not exist (or is not a directory). */
async function entriesOf(dir: string, root: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const errno = errnoOf(error);
    if (errno === "ENOENT" || errno === "ENOTDIR" || errno === "ENAMETOOLONG") return [];
    throw fsError(error, "read", dir, root);
  }
}

async function statOrNone(path: string, root: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return undefined; // removed while we looked
    throw fsError(error, "read", path, root);
  }
}

/** Size of the logical value: a `.gz` blob reports its uncompressed size, like every other backend. */
export async function logicalSize(path: string, stats: Stats): Promise<number> {
  return path.endsWith(GZ_SUFFIX) ? gzipLogicalSize(path, stats.size) : stats.size;
}

/**
 * Every key starting with `prefix`. Walks only the directories the prefix can reach:
 * `refs/<session>/` reads one directory, `blobs/sha256/ab/cd/abcd12` one shard. Inside a
 * directory only the names starting with the rest of the prefix are looked at (found by binary
 * search in the directory's sorted snapshot, re-used while the directory is unchanged), in name
 * order. Temp and trash files are never reported; a blob stored in both forms is reported once.
 */
export async function* listKeys(
  root: string,
  prefix: string,
  realDirs: Set<string> = new Set(),
  dirs: DirectoryCache = new DirectoryCache(root),
): AsyncIterable<DriverEntry> {
  const { dir, base } = listingStart(root, prefix);
  await assertRealDirs(root, dir, realDirs); // a symlinked directory on the way is refused, never listed through
  yield* walk(root, dir, base, prefix, dirs);
}

async function* walk(
  root: string,
  dir: string,
  base: string,
  prefix: string,
  dirs: DirectoryCache,
): AsyncIterable<DriverEntry> {
  const { names, kinds } = await dirs.read(dir);
  // Below the prefix's own directory every name matches; in it, those starting with the rest of the prefix.
  const rest = prefix.length > base.length ? prefix.slice(base.length) : "";
  const subdirs: string[] = [];
  const seen = new Set<string>();
  const end = names.length;
  let i = lowerBound(names, rest);
  // Files in batches of STAT_BATCH, made into keys only as the consumer asks: a listing stopped
  // after 200 keys of a 10,000-entry directory stats 200 files and builds no more keys than that.
  while (i < end && names[i]!.startsWith(rest)) {
    const files: { path: string; key: string }[] = [];
    for (; files.length < STAT_BATCH && i < end && names[i]!.startsWith(rest); i++) {
      const name = names[i]!;
      if (base === "" && name === PACK_DIR) continue; // the packs' own directory: its blobs are listed by the driver
      if (kinds[i] === "dir") {
        subdirs.push(name);
        continue;
      }
      // Regular files are keys; anything else (a symlink, a FIFO) is reported as irregular, never followed.
      const key = keyOfFile(base, name);
      if (key?.startsWith(prefix) && !seen.has(key)) {
        seen.add(key);
        files.push({ path: join(dir, name), key });
      }
    }
    dirs.work.filesStatted += files.length;
    const batch = await Promise.all(
      files.map(async ({ path, key }) => {
        const stats = await statOrNone(path, root);
        if (!stats) return undefined;
        if (!stats.isFile())
          return stats.isDirectory()
            ? undefined
            : { key, size: 0, modifiedAt: stats.mtime, irregular: irregularKind(stats) };
        try {
          return { key, size: await logicalSize(path, stats), modifiedAt: stats.mtime };
        } catch (error) {
          if (errnoOf(error) === "ENOENT") return undefined;
          throw fsError(error, "read", path, root);
        }
      }),
    );
    for (const entry of batch) if (entry) yield entry;
  }
  for (const name of subdirs) yield* walk(root, join(dir, name), `${base}${name}/`, prefix, dirs);
}

/**
 * Finds temp and trash files whose last change (the later of mtime and ctime: a rename
 * to trash updates ctime) is at least `olderThanMs` ago, removes them unless `dryRun`,
 * and returns their paths relative to the root ('/'-separated).
 */
export async function sweepScratch(root: string, olderThanMs: number, dryRun: boolean): Promise<string[]> {
  const found: string[] = [];
  const cutoff = Date.now() - olderThanMs;
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await entriesOf(dir, root)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        await visit(path);
        continue;
      }
      if (!entry.isFile() || !isScratchName(entry.name)) continue;
      const stats = await statOrNone(path, root);
      if (!stats || Math.max(stats.mtimeMs, stats.ctimeMs) > cutoff) continue;
      if (!dryRun) {
        try {
          await unlink(path);
        } catch (error) {
          if (errnoOf(error) === "ENOENT") continue; // another sweeper or its writer got there first
          throw fsError(error, "write", path, root);
        }
      }
      found.push(relative(root, path).split(sep).join("/"));
    }
  };
  await visit(root);
  return found.sort();
}
