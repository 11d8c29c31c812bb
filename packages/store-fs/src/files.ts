import { chmod, mkdir, open, unlink, utimes } from "node:fs/promises";
import { dirname, join } from "node:path";
import { errnoOf } from "./errors.js";
import { TEMP_PREFIX, TRASH_PREFIX } from "./paths.js";

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
 * Creates directories with mode 0700 (chmod'ed explicitly, so a permissive umask
 * cannot widen them), remembering which exist so that the hot path makes no mkdir or
 * stat call. `forget` drops a directory someone removed behind our back.
 */
export class DirMaker {
  readonly #known = new Set<string>();

  async ensure(dir: string): Promise<void> {
    if (this.#known.has(dir)) return;
    try {
      await mkdir(dir, { mode: DIR_MODE });
      await chmod(dir, DIR_MODE);
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === "ENOENT" && dirname(dir) !== dir) {
        await this.ensure(dirname(dir));
        this.#known.delete(dir);
        return this.ensure(dir);
      }
      // EEXIST: made by us earlier or by another process. If it is a file, the next
      // open in it fails with ENOTDIR, which names the path.
      if (errno !== "EEXIST") throw error;
    }
    this.#known.add(dir);
  }

  forget(dir: string): void {
    this.#known.delete(dir);
  }

  clear(): void {
    this.#known.clear();
  }
}

/**
 * Writes `data` to a new file (exclusive create, mode 0600), fsyncs it when asked and
 * closes it. On failure the partial file is removed.
 */
export async function writeNewFile(path: string, data: Uint8Array, sync: boolean): Promise<void> {
  const handle = await open(path, "wx", FILE_MODE);
  try {
    await handle.chmod(FILE_MODE);
    await handle.writeFile(data);
    if (sync) await handle.datasync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
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
    await utimes(path, now, now);
    return true;
  } catch (error) {
    const errno = errnoOf(error);
    if (errno === "ENOENT" || errno === "ENOTDIR") return false;
    throw error;
  }
}
