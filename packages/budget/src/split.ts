import type { Encoding } from "./encodings.js";

/**
 * Safe splitting before counting.
 *
 * BPE tokenizers first cut text into "pieces" with a regular expression, then merge bytes
 * inside each piece. Merging is superlinear in the piece length, so one huge piece (a
 * megabyte of one repeated character, a long base64 line without digits, a wall of
 * newlines) stalls the pure-JS tokenizers for minutes and crashes tiktoken's WASM
 * (`RuntimeError: unreachable`).
 *
 * `splitForCounting` finds pieces longer than `maxPieceChars` and cuts them into slices of
 * at most that length; everything between long pieces stays whole. Counting the chunks
 * and adding the counts is:
 * - exact when no piece is longer than `maxPieceChars` (all normal prose, code, logs and
 *   minified JSON): the text is returned as one chunk;
 * - exact at every boundary next to a long piece, since BPE never merges across pieces;
 * - approximate only inside a long piece: each forced cut can change the count by about
 *   one token (measured and tested: see test/split.test.ts and docs/benchmarks/budget.md).
 *
 * The piece expressions are those of `gpt-tokenizer` (MIT), which reproduce tiktoken's.
 */
const CONTRACTION = "'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])";
const PIECE_PATTERNS: Record<Encoding, string> = {
  cl100k_base: String.raw`${CONTRACTION}|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s`,
  o200k_base: String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:${CONTRACTION})?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:${CONTRACTION})?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
};

/** Longest piece counted as is. Longer pieces are cut into slices of this many UTF-16 units. */
export const DEFAULT_MAX_PIECE_CHARS = 256;

export interface SplitResult {
  /** Chunks whose counts add up to the text's count (exactly when `forcedCuts` is 0). */
  chunks: string[];
  /** Cuts made inside long pieces, where the sum may differ from the true count by about one token each. */
  forcedCuts: number;
}

const pieceRegexes = new Map<Encoding, RegExp>();
function pieceRegex(encoding: Encoding): RegExp {
  let re = pieceRegexes.get(encoding);
  if (!re) {
    re = new RegExp(PIECE_PATTERNS[encoding], "gu");
    pieceRegexes.set(encoding, re);
  }
  return re;
}

const prefilters = new Map<number, RegExp>();
/**
 * A piece longer than `max` contains a run of at least max/2 non-space characters, of
 * whitespace, or of newlines and slashes (o200k's punctuation tail). Text without such a
 * run cannot hold a long piece, so it is returned whole without scanning its pieces.
 */
function prefilter(max: number): RegExp {
  let re = prefilters.get(max);
  if (!re) {
    const k = Math.max(1, Math.floor(max / 2));
    re = new RegExp(String.raw`\S{${k},}|\s{${k},}|[\r\n/]{${k},}`);
    prefilters.set(max, re);
  }
  return re;
}

/** Splits `text` into chunks that are safe to count one by one. See the module comment for the error bound. */
export function splitForCounting(
  text: string,
  encoding: Encoding,
  maxPieceChars = DEFAULT_MAX_PIECE_CHARS,
): SplitResult {
  if (text.length <= maxPieceChars || !prefilter(maxPieceChars).test(text)) return { chunks: [text], forcedCuts: 0 };
  const re = pieceRegex(encoding);
  re.lastIndex = 0;
  const chunks: string[] = [];
  let forcedCuts = 0;
  let chunkStart = 0;
  let match: RegExpExecArray | null;
  while ((match = re.exec(text)) !== null) {
    const start = match.index;
    const piece = match[0];
    if (piece.length === 0) {
      re.lastIndex++; // never happens with these patterns; guards against an endless loop
      continue;
    }
    if (piece.length <= maxPieceChars) continue;
    if (start > chunkStart) chunks.push(text.slice(chunkStart, start));
    let at = 0;
    while (at < piece.length) {
      let end = Math.min(piece.length, at + maxPieceChars);
      // Never cut a surrogate pair in half.
      if (end < piece.length && isLowSurrogate(piece.charCodeAt(end)) && end - 1 > at) end--;
      chunks.push(piece.slice(at, end));
      if (end < piece.length) forcedCuts++;
      at = end;
    }
    chunkStart = start + piece.length;
  }
  if (chunkStart < text.length) chunks.push(text.slice(chunkStart));
  return { chunks, forcedCuts };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
