import { lutimes, mkdir, open, chmod, unlink } from "node:fs/promises";
import { lstatSync, type Stats } from "node:fs";
import { ArefError } from "@artifact-refs/schema";
import { dirname, join } from "node:path";
import { errnoOf } from "./errors.js";
import { TEMP_PREFIX, TRASH_PREFIX, withSep } from "./paths.js";

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Unique scratch names: pid + a random tag per driver instance + a counter. Never reused, even across processes. */
export class ScratchNames {
  readonly #tag = Math.random().toString(36).slice(2, 8);
  #counter = 0;

  temp(dir: string): string {
    return join(dir, `${TEMP_PREFIX}${process.pid}-${this.#tag}-${(this.#counter++).toString(36)}`);
  }

  trash(dir: string): string {
    return join(dir, `${TRASH_PREFIX}${process.pid}-${this.#tag}-${(this.#counter++).toString(36)}`);
  }
}

/**
 * Makes the store's directories (0700) and files (0600). open/mkdir modes pass through
 * the umask, which can only remove bits: a umask that strips the owner's own bits (277,
 * say) would leave files the store cannot rewrite. So the first file this instance
 * creates is checked with fstat; while the umask is seen (or not yet known) to strip
 * owner bits, every file and directory is chmod'ed explicitly. With a usual umask (022,
 * 077) the hot path makes no chmod call at all.
 *
 * Directories known to exist are remembered, so the hot path makes no mkdir call
 * either; they are created top-down from the nearest known one, so no call fails with
 * ENOENT on the way. `clear` forgets them all when one turns out to be gone (someone
 * removed part of the tree behind our back).
 */
export class FileMaker {
  readonly #root: string;
  readonly #known = new Set<string>();
  readonly #onCreated: (dir: string) => void;
  readonly #syncNewDirs: boolean;
  #umaskKeepsOwnerBits: boolean | undefined;
  /** Parent directories fsynced because a directory was created in them (one each time). */
  parentsSynced = 0;

  /**
   * `onCreated` hears of every directory this maker created itself (a real directory: mkdir never follows a link).
   * `syncNewDirs`: fsync a new directory's parent once, right after creating it, so the new entry survives a crash
   * (the files written in it later only fsync their own directory).
   */
  constructor(root: string, onCreated: (dir: string) => void = () => undefined, syncNewDirs = false) {
    this.#root = root;
    this.#onCreated = onCreated;
    this.#syncNewDirs = syncNewDirs;
  }

  async ensureDir(dir: string): Promise<void> {
    if (this.#known.has(dir)) return;
    const parent = dirname(dir);
    const isTop = dir === this.#root || parent === dir || !dir.startsWith(withSep(this.#root));
    if (!isTop) await this.ensureDir(parent);
    let created: boolean;
    try {
      // The root may need its own parents (mkdir -p); below it, the parent exists now.
      created = isTop
        ? (await mkdir(dir, { mode: DIR_MODE, recursive: true })) !== undefined
        : (await mkdir(dir, { mode: DIR_MODE }), true);
    } catch (error) {
      // EEXIST: made by another process meanwhile. If it is a file, the next open in it
      // fails with ENOTDIR, which names the path.
      if (errnoOf(error) !== "EEXIST") throw error;
      created = false;
    }
    if (created && this.#umaskKeepsOwnerBits !== true) await chmod(dir, DIR_MODE);
    // Once per new directory, not per file. For the root (mkdir -p) only its direct parent, best effort:
    // the directories above it are the user's.
    if (created && this.#syncNewDirs) {
      if (!isTop) await syncDir(parent);
      else await syncDir(parent).catch(() => undefined);
      this.parentsSynced++;
    }
    if (created) this.#onCreated(dir);
    this.#known.add(dir);
  }

  clear(): void {
    this.#known.clear();
  }

  /**
   * Writes `data` to a new file (exclusive create, mode 0600), fsyncs it when asked and
   * closes it. On failure the partial file is removed.
   */
  async writeNewFile(path: string, data: Uint8Array, sync: boolean): Promise<void> {
    const handle = await open(path, "wx", FILE_MODE);
    try {
      if (this.#umaskKeepsOwnerBits === undefined)
        this.#umaskKeepsOwnerBits = ((await handle.stat()).mode & 0o777) === FILE_MODE;
      if (!this.#umaskKeepsOwnerBits) await handle.chmod(FILE_MODE);
      await handle.writeFile(data);
      if (sync) await handle.datasync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(path).catch(() => undefined);
      throw error;
    }
    await handle.close();
  }
}

/** Makes a directory's entries (a new link, a rename, an unlink) durable. */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Sets a file's modification time to now; false when it does not exist. Used as the
 * existence check of putIfAbsent: one system call both checks and refreshes the time
 * that protects a re-used blob from gc.
 */
export async function touch(path: string): Promise<boolean> {
  const now = new Date();
  try {
    await lutimes(path, now, now); // never through a symlink: a planted link's target is not ours to touch
    return true;
  } catch (error) {
    const errno = errnoOf(error);
    if (errno === "ENOENT" || errno === "ENOTDIR") return false;
    throw error;
  }
}

/** What a non-regular, non-directory entry is ("symbolic link", "FIFO", …). */
export function irregularKind(stats: Stats): string {
  if (stats.isSymbolicLink()) return "symbolic link";
  if (stats.isFIFO()) return "FIFO";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "device";
  return stats.isDirectory() ? "directory" : "special file";
}

/** IO_ERROR for a store entry that is not what the store writes (a symlink, a FIFO, …): never followed or read. */
export function irregularError(path: string, kind: string, root: string): ArefError {
  return new ArefError(
    "IO_ERROR",
    `${path} is a ${kind}, not a ${kind === "symbolic link" ? "regular file or directory the store made" : "regular file"}: refusing to follow or use it`,
    {
      hint: `something other than artifact-refs wrote into ${root}; \`aref verify --repair\` removes it (then stash the content again)`,
      details: { path, irregular: kind },
    },
  );
}

/**
 * Checks that no directory between `root` (exclusive) and `dir` (inclusive) is a symbolic link
 * or anything but a directory, so a planted `refs/<session>` link cannot send reads or writes
 * outside the store. Directories seen real are remembered in `known`; missing ones end the walk.
 * Returns false when a directory on the way is missing (then nothing below it exists either).
 */
export async function assertRealDirs(root: string, dir: string, known: Set<string>): Promise<boolean> {
  if (known.has(dir) || dir === root || !dir.startsWith(withSep(root))) return true;
  const parent = dirname(dir);
  if (!(await assertRealDirs(root, parent, known))) return false;
  let stats: Stats | undefined;
  try {
    // Synchronous on purpose (as the fs driver's existence checks): answered from the dentry cache,
    // and a missing directory (the common case: a packed chunk's shard) allocates no error.
    stats = lstatSync(dir, { throwIfNoEntry: false });
  } catch (error) {
    const errno = (error as { code?: string }).code;
    if (errno === "ENOENT" || errno === "ENOTDIR" || errno === "ENAMETOOLONG") return false; // too long to exist
    throw error;
  }
  if (stats === undefined) return false;
  if (stats.isFile()) return true; // a file where a directory belongs: the operation itself fails with ENOTDIR, which names it
  if (!stats.isDirectory()) throw irregularError(dir, irregularKind(stats), root);
  known.add(dir);
  return true;
}
