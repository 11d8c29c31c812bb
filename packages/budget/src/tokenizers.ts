import { createRequire } from "node:module";
import { ArefError } from "@artifact-refs/schema";
import { DEFAULT_ENCODING, type Encoding, resolveEncoding } from "./encodings.js";
import { cachedCount } from "./cache.js";
import { DEFAULT_MAX_PIECE_CHARS, splitForCounting } from "./split.js";

/** Anything that counts tokens. Plug your own into `countTokens({ tokenizer })`. */
export interface Tokenizer {
  /** Identifies the counting (implementation and encoding); counts are cached under it. */
  readonly name: string;
  readonly encoding: string;
  count(text: string): number;
  dispose?(): void;
}

/** Built-in implementations. All three give identical counts; see docs/benchmarks/budget.md for speed. */
export const TOKENIZER_IMPLS = ["tiktoken", "gpt-tokenizer", "js-tiktoken"] as const;
export type TokenizerImpl = (typeof TOKENIZER_IMPLS)[number];
/** The default implementation (the contract's choice); "gpt-tokenizer" is the faster option with identical counts. */
export const DEFAULT_TOKENIZER_IMPL: TokenizerImpl = "tiktoken";

export interface TokenizerOptions {
  /** Target model: picks the encoding (o200k_base for current OpenAI models, cl100k_base otherwise). */
  model?: string;
  /** Explicit encoding; wins over `model`. */
  encoding?: string;
  impl?: TokenizerImpl;
  /** Unknown model: an error instead of the default encoding plus a warning. */
  strict?: boolean;
  /** Receives the unknown-model warning. Default: `process.emitWarning`, once per model name. */
  onWarning?: (message: string) => void;
}

/** A built-in tokenizer handle. `count` is safe on any input and cached by content hash. */
export interface BuiltinTokenizer extends Tokenizer {
  readonly encoding: Encoding;
  readonly impl: TokenizerImpl;
  /** The unknown-model warning, when the default encoding was used for an unknown model. */
  readonly warning: string | undefined;
  /** Counts without the cache (still safe). */
  countUncached(text: string): number;
  /** Releases this handle; the shared encoder is freed when its last handle is released. */
  dispose(): void;
}

type RawEncode = (text: string) => number;
interface SharedEncoder {
  impl: TokenizerImpl;
  encoding: Encoding;
  encode: RawEncode;
  free(): void;
  refs: number;
  /** Set by disposeAllTokenizers: handles still holding it acquire a fresh encoder. */
  freed: boolean;
}

const require = createRequire(import.meta.url);
const shared = new Map<string, SharedEncoder>();

function load(impl: TokenizerImpl, encoding: Encoding): { encode: RawEncode; free(): void } {
  try {
    switch (impl) {
      case "tiktoken": {
        const { get_encoding } = require("tiktoken") as typeof import("tiktoken");
        const enc = get_encoding(encoding);
        return { encode: (text) => enc.encode_ordinary(text).length, free: () => enc.free() };
      }
      case "gpt-tokenizer": {
        const mod = require(`gpt-tokenizer/encoding/${encoding}`) as {
          countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
        };
        const none = new Set<string>();
        return { encode: (text) => mod.countTokens(text, { disallowedSpecial: none }), free: () => {} };
      }
      case "js-tiktoken": {
        const { Tiktoken } = require("js-tiktoken/lite") as {
          Tiktoken: new (ranks: unknown) => { encode(t: string, a: string[], d: string[]): number[] };
        };
        const ranks = require(`js-tiktoken/ranks/${encoding}`) as { default?: unknown };
        const enc = new Tiktoken(ranks.default ?? ranks);
        return { encode: (text) => enc.encode(text, [], []).length, free: () => {} };
      }
    }
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException)?.code === "MODULE_NOT_FOUND";
    throw new ArefError(
      "TOKENIZER_FAILED",
      `could not load tokenizer ${impl} (${encoding}): ${(error as Error)?.message ?? String(error)}`,
      {
        hint: missing ? `install it: pnpm add ${impl}` : "check the installation of the tokenizer package",
        cause: error,
      },
    );
  }
  throw new ArefError("INVALID_INPUT", `unknown tokenizer implementation ${JSON.stringify(impl)}`, {
    hint: `use one of: ${TOKENIZER_IMPLS.join(", ")}`,
  });
}

function acquire(impl: TokenizerImpl, encoding: Encoding): SharedEncoder {
  const key = `${impl}:${encoding}`;
  let entry = shared.get(key);
  if (!entry) {
    const loaded = load(impl, encoding);
    entry = { impl, encoding, encode: loaded.encode, free: loaded.free, refs: 0, freed: false };
    shared.set(key, entry);
  }
  entry.refs++;
  return entry;
}

function release(entry: SharedEncoder): void {
  if (entry.freed) return;
  entry.refs--;
  if (entry.refs <= 0) {
    const key = `${entry.impl}:${entry.encoding}`;
    if (shared.get(key) === entry) shared.delete(key);
    entry.free();
  }
}

/** A failed encoder may be left broken (tiktoken's WASM after a trap): drop it so the next count loads a fresh one. */
function replaceBroken(entry: SharedEncoder): void {
  const key = `${entry.impl}:${entry.encoding}`;
  if (shared.get(key) !== entry) return;
  try {
    entry.free();
  } catch {
    // already unusable
  }
  const loaded = load(entry.impl, entry.encoding);
  entry.encode = loaded.encode;
  entry.free = loaded.free;
}

/** Counts `text` safely with a shared encoder: long pieces are split first (see split.ts). */
function safeCount(entry: SharedEncoder, text: string, maxPieceChars: number): number {
  if (text.length === 0) return 0;
  const { chunks } = splitForCounting(text, entry.encoding, maxPieceChars);
  try {
    if (chunks.length === 1) return entry.encode(chunks[0]!);
    let total = 0;
    // Slices of one long run repeat (a megabyte of "a"): count each distinct slice once.
    const memo = new Map<string, number>();
    for (const chunk of chunks) {
      if (chunk.length <= maxPieceChars) {
        let n = memo.get(chunk);
        if (n === undefined) {
          n = entry.encode(chunk);
          memo.set(chunk, n);
        }
        total += n;
      } else {
        total += entry.encode(chunk);
      }
    }
    return total;
  } catch (error) {
    try {
      replaceBroken(entry);
    } catch {
      // the next acquire reports the load failure
    }
    throw new ArefError(
      "TOKENIZER_FAILED",
      `${entry.impl} (${entry.encoding}) failed to count ${text.length} chars: ${(error as Error)?.message ?? String(error)}`,
      {
        hint: 'the count is unknown, so budgets fail closed; try another implementation (impl: "gpt-tokenizer")',
        cause: error,
      },
    );
  }
}

const warned = new Set<string>();
/** The default unknown-model warning: `process.emitWarning`, once per message. */
export function emitUnknownModelWarning(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  process.emitWarning(message, { code: "AREF_UNKNOWN_MODEL" });
}

/**
 * A tokenizer for a model or encoding. One encoder per (implementation, encoding) is
 * shared by every handle and freed when the last handle is disposed.
 */
export function getTokenizer(opts: TokenizerOptions = {}): BuiltinTokenizer {
  const impl = opts.impl ?? DEFAULT_TOKENIZER_IMPL;
  if (!(TOKENIZER_IMPLS as readonly string[]).includes(impl)) {
    throw new ArefError("INVALID_INPUT", `unknown tokenizer implementation ${JSON.stringify(impl)}`, {
      hint: `use one of: ${TOKENIZER_IMPLS.join(", ")}`,
    });
  }
  const resolution = resolveEncoding(opts);
  if (resolution.warning !== undefined) (opts.onWarning ?? emitUnknownModelWarning)(resolution.warning);
  let entry = acquire(impl, resolution.encoding);
  let disposed = false;
  const uncached = (text: string): number => {
    if (disposed)
      throw new ArefError("INVALID_INPUT", `tokenizer ${impl}:${resolution.encoding} was disposed`, {
        hint: "get a new one with getTokenizer()",
      });
    if (typeof text !== "string") throw new ArefError("INVALID_INPUT", `can only count strings, got ${typeof text}`);
    if (entry.freed) entry = acquire(impl, resolution.encoding);
    return safeCount(entry, text, DEFAULT_MAX_PIECE_CHARS);
  };
  const tokenizer: BuiltinTokenizer = {
    name: `${impl}:${resolution.encoding}`,
    encoding: resolution.encoding,
    impl,
    warning: resolution.warning,
    countUncached: uncached,
    count: (text: string) => {
      if (disposed) return uncached(text); // throws
      return cachedCount(tokenizer, text, uncached, true);
    },
    dispose: () => {
      if (disposed) return;
      disposed = true;
      release(entry);
    },
  };
  return Object.freeze(tokenizer);
}

/** Frees every shared encoder (handles still held will load a fresh one on their next use). */
export function disposeAllTokenizers(): void {
  for (const entry of shared.values()) {
    entry.freed = true;
    try {
      entry.free();
    } catch {
      // ignore
    }
  }
  shared.clear();
}

/** Number of live shared encoders, for tests and diagnostics. */
export function liveEncoderCount(): number {
  return shared.size;
}

export { DEFAULT_ENCODING };
