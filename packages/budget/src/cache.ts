import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Tokenizer } from "./tokenizers.js";

/**
 * Token counts cached by content hash (SHA-256) and tokenizer name, so the same content is
 * counted once per process. Bounded (least recently used entries go first). Short texts are
 * keyed by themselves, which is cheaper than hashing them.
 */
const SHORT_KEY_CHARS = 64;
let maxEntries = 10_000;
const lruOf = (max: number) => new LRUCache<string, number>({ max: Math.max(1, max) });
let cache = lruOf(maxEntries);
let hits = 0;
let misses = 0;

/** Separate caches for custom tokenizers: two user tokenizers with the same name must not share counts. */
const customIds = new WeakMap<Tokenizer, number>();
let nextCustomId = 0;

export function cacheKey(tokenizer: Tokenizer, text: string, builtin: boolean): string {
  let prefix = tokenizer.name;
  if (!builtin) {
    let id = customIds.get(tokenizer);
    if (id === undefined) {
      id = nextCustomId++;
      customIds.set(tokenizer, id);
    }
    prefix = `custom${id}:${tokenizer.name}`;
  }
  if (text.length <= SHORT_KEY_CHARS) return `${prefix}|s|${text}`;
  return `${prefix}|h|${createHash("sha256").update(text).digest("base64")}`;
}

/** Returns the cached count of `text`, computing it with `count` on a miss. Errors are never cached. */
export function cachedCount(
  tokenizer: Tokenizer,
  text: string,
  count: (text: string) => number,
  builtin: boolean,
): number {
  const key = cacheKey(tokenizer, text, builtin);
  const found = cache.get(key); // a hit is now the most recently used
  if (found !== undefined) {
    hits++;
    return found;
  }
  misses++;
  const value = count(text);
  if (maxEntries > 0) cache.set(key, value); // over the bound, the least recently used entry goes
  return value;
}

export interface CountCacheStats {
  entries: number;
  maxEntries: number;
  hits: number;
  misses: number;
}

export function countCacheStats(): CountCacheStats {
  return { entries: cache.size, maxEntries, hits, misses };
}

/** Empties the count cache (and its statistics); optionally changes its bound. */
export function clearCountCache(opts: { maxEntries?: number } = {}): void {
  hits = 0;
  misses = 0;
  if (opts.maxEntries !== undefined) {
    if (!Number.isInteger(opts.maxEntries) || opts.maxEntries < 0)
      throw new RangeError("maxEntries must be a non-negative integer");
    maxEntries = opts.maxEntries;
  }
  cache = lruOf(maxEntries);
}
