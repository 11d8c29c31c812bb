/** Default cache-weighted pricing (the "anthropic" price model): a cached prefix at 0.1×, the rest at 1.25× (cache write). */
export const CACHED_PRICE = 0.1;
export const UNCACHED_PRICE = 1.25;

/** A prompt as the accounting sees it: parts of rendered text with their token counts. */
export interface CountedPart {
  text: string;
  tokens: number;
}

export interface CallCost {
  tokens: number;
  /** Tokens in the longest prefix byte-identical to the previous call's prompt. */
  prefixTokens: number;
  /** 0.1 × prefix + 1.25 × the rest. */
  cost: number;
}

/**
 * Tokens of `current` that sit in a prefix byte-identical to `previous`: whole parts while they
 * are equal, then the common prefix of the first differing part (counted with `count`).
 */
export function prefixTokens(
  previous: readonly CountedPart[] | undefined,
  current: readonly CountedPart[],
  count: (text: string) => number,
): number {
  if (!previous) return 0;
  let tokens = 0;
  for (let i = 0; i < current.length; i++) {
    const cur = current[i]!;
    const prev = previous[i];
    if (prev === undefined) break;
    if (prev.text === cur.text) {
      tokens += cur.tokens;
      continue;
    }
    const common = commonPrefixLength(prev.text, cur.text);
    if (common > 0) tokens += Math.min(cur.tokens, count(cur.text.slice(0, common)));
    break;
  }
  return tokens;
}

export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // Compare in chunks first (fast path for long equal heads).
  const step = 256;
  while (i + step <= n && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Never split a surrogate pair.
  if (i > 0 && i < n && a.charCodeAt(i - 1) >= 0xd800 && a.charCodeAt(i - 1) <= 0xdbff) i--;
  return i;
}

export function callCost(
  previous: readonly CountedPart[] | undefined,
  current: readonly CountedPart[],
  count: (text: string) => number,
  prices: { cachedRead: number; write: number } = { cachedRead: CACHED_PRICE, write: UNCACHED_PRICE },
): CallCost {
  let tokens = 0;
  for (const p of current) tokens += p.tokens;
  const prefix = prefixTokens(previous, current, count);
  return { tokens, prefixTokens: prefix, cost: prices.cachedRead * prefix + prices.write * (tokens - prefix) };
}

/** A token counter memoised on the string itself (V8 caches a string's hash, so repeats are O(1)). */
export function memoCounter(count: (text: string) => number): (text: string) => number {
  const cache = new Map<string, number>();
  return (text: string) => {
    let n = cache.get(text);
    if (n === undefined) {
      n = count(text);
      if (cache.size > 200_000) cache.clear();
      cache.set(text, n);
    }
    return n;
  };
}
