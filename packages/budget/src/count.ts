import { ArefError, isArefError } from "@artifact-refs/schema";
import { cachedCount } from "./cache.js";
import { resolveEncoding } from "./encodings.js";
import {
  type BuiltinTokenizer,
  DEFAULT_TOKENIZER_IMPL,
  emitUnknownModelWarning,
  getTokenizer,
  type Tokenizer,
  type TokenizerOptions,
} from "./tokenizers.js";

export interface CountOptions extends TokenizerOptions {
  /** Count with this tokenizer instead of a built-in one (cached per tokenizer object). */
  tokenizer?: Tokenizer;
  /** Set to false to bypass the content-hash cache. */
  cache?: boolean;
}

export type CountResult = { ok: true; tokens: number } | { ok: false; error: ArefError };

const defaults = new Map<string, BuiltinTokenizer>();

/** The shared built-in tokenizer for these options (kept for the process; `getTokenizer` gives your own handle). */
export function defaultTokenizer(opts: TokenizerOptions = {}): BuiltinTokenizer {
  const resolution = resolveEncoding(opts);
  const impl = opts.impl ?? DEFAULT_TOKENIZER_IMPL;
  const key = `${impl}:${resolution.encoding}`;
  let tokenizer = defaults.get(key);
  if (!tokenizer) {
    tokenizer = getTokenizer({ impl, encoding: resolution.encoding });
    defaults.set(key, tokenizer);
  }
  if (resolution.warning !== undefined) (opts.onWarning ?? emitUnknownModelWarning)(resolution.warning);
  return tokenizer;
}

function checked(tokenizer: Tokenizer, text: string): number {
  let n: number;
  try {
    n = tokenizer.count(text);
  } catch (error) {
    if (isArefError(error) && error.code === "TOKENIZER_FAILED") throw error;
    throw new ArefError(
      "TOKENIZER_FAILED",
      `tokenizer ${tokenizer.name} failed: ${(error as Error)?.message ?? String(error)}`,
      {
        hint: "the count is unknown, so budgets fail closed",
        cause: error,
      },
    );
  }
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new ArefError("TOKENIZER_FAILED", `tokenizer ${tokenizer.name} returned ${String(n)}, not a token count`, {
      hint: "a Tokenizer's count() must return a non-negative integer; budgets fail closed on anything else",
    });
  }
  return n;
}

/**
 * Number of tokens in `text` for the target model (or encoding, or your tokenizer).
 * Safe on any input (long runs are split first), cached by content hash, and never a
 * guess: a count that cannot be made throws TOKENIZER_FAILED.
 */
export function countTokens(text: string, opts: CountOptions = {}): number {
  if (typeof text !== "string")
    throw new ArefError("INVALID_INPUT", `can only count strings, got ${text === null ? "null" : typeof text}`);
  if (opts === null || typeof opts !== "object")
    throw new ArefError(
      "INVALID_INPUT",
      `tokenizer options must be an object, got ${opts === null ? "null" : typeof opts}`,
    );
  if (opts.tokenizer) {
    const custom = opts.tokenizer;
    if (opts.cache === false) return checked(custom, text);
    return cachedCount(custom, text, (t) => checked(custom, t), false);
  }
  const tokenizer = defaultTokenizer(opts);
  if (opts.cache === false)
    return checked({ name: tokenizer.name, encoding: tokenizer.encoding, count: tokenizer.countUncached }, text);
  return checked(tokenizer, text);
}

/** Like countTokens, but returns the failure instead of throwing (for fail-closed checks). */
export function tryCountTokens(text: string, opts: CountOptions = {}): CountResult {
  try {
    return { ok: true, tokens: countTokens(text, opts) };
  } catch (error) {
    if (isArefError(error)) return { ok: false, error };
    return {
      ok: false,
      error: new ArefError("TOKENIZER_FAILED", `counting failed: ${(error as Error)?.message ?? String(error)}`, {
        cause: error,
      }),
    };
  }
}
