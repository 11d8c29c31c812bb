import { readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Which two-level shard directories (`blobs/sha256/ab/cd`) exist, read once per first level
 * (`ab`, at most 256 directory reads) for the life of one pack batch. A chunk whose shard
 * directory was not there has no loose copy, so the batch skips the two lstat calls per new chunk
 * (the main thread's largest cost on a big put into a fresh store after the chunking moved to a
 * worker). A directory another process creates after the read is missed: the chunk then gets a
 * packed copy beside the loose one, a state the store already handles (two valid copies; the loose
 * one is read first; a delete removes both).
 */
export class ShardDirs {
  readonly #base: string;
  readonly #seen = new Map<string, Set<string>>();

  constructor(root: string) {
    this.#base = join(root, "blobs", "sha256");
  }

  /** False when `id`'s shard directory did not exist when its first level was read. */
  mayHold(id: string): boolean {
    const first = id.slice(0, 2);
    let second = this.#seen.get(first);
    if (second === undefined) {
      try {
        second = new Set(readdirSync(join(this.#base, first)));
      } catch {
        second = new Set(); // no such directory (or unreadable: the lstat path would fail the same way)
      }
      this.#seen.set(first, second);
    }
    return second.has(id.slice(2, 4));
  }
}
