import {
  ArefError,
  type GrepSelector,
  type HeadTailSelector,
  type RangeSelector,
  type Selection,
  type Selector,
} from "@artifact-refs/schema";
import { fmtInt, safeCut } from "../text.js";
import { applySelector, parseSelector } from "./apply.js";
import { DEFAULT_REGEX_TIME_LIMIT_MS, type SelectOptions, capOf, charsNote, linesNote } from "./common.js";
import { DEFAULT_GREP_CONTEXT, DEFAULT_GREP_MAX_MATCHES } from "./grep.js";
import { GrepScan, assembleHeadTail, balance, driveAsync, packGrep, planHeadTail, tailCutInLine } from "./packing.js";
import { compileSafeRegex } from "./regex.js";

/**
 * Content stored in chunks, each read on demand (the store's ChunkedArtifact fits this shape).
 * Per-chunk newline and char counts let a selection find the chunks it needs without the others.
 */
export interface ChunkSource {
  readonly size: number;
  readonly lines: number;
  readonly chars: number;
  readonly chunks: readonly {
    readonly newlines: number;
    readonly chars: number;
    readonly newlinesBefore: number;
    readonly charsBefore: number;
  }[];
  read(index: number): Promise<Uint8Array>;
}

/** JSONPath needs the whole document parsed: over this size a chunked JSON artifact is refused (UNSUPPORTED). */
export const CHUNKED_JSONPATH_MAX_BYTES = 32 * 1024 * 1024;
/** A grep's default time limit (DEFAULT_REGEX_TIME_LIMIT_MS) is granted per this many bytes of chunked content. */
export const GREP_LIMIT_BYTES = 8 * 1024 * 1024;
/** Decoded chunks kept while one selection runs. */
const CACHED_CHUNKS = 8;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * `applySelector` over chunked content, reading only the chunks the selection needs: head and
 * tail read the first and last chunks, a range the chunks its lines are in, grep scans chunk by
 * chunk (one at a time, plus one read ahead) and then reads the few chunks it shows. The result
 * is the same Selection `applySelector` returns for the whole text. Grep's default time limit
 * scales with the size (DEFAULT_REGEX_TIME_LIMIT_MS per GREP_LIMIT_BYTES).
 */
export async function applySelectorToChunks(
  source: ChunkSource,
  selector?: Selector | unknown,
  options: SelectOptions = {},
): Promise<Selection> {
  const sel = parseSelector(selector);
  const view = new ChunkView(source);
  if (sel.mode === "jsonpath") {
    if (source.size > CHUNKED_JSONPATH_MAX_BYTES) {
      throw new ArefError(
        "UNSUPPORTED",
        `JSONPath reads the whole document, and this one is ${fmtInt(source.size)} bytes (the limit for chunked content is ${fmtInt(CHUNKED_JSONPATH_MAX_BYTES)})`,
        {
          hint: "use grep or range to page through it, or store the part you need as its own artifact",
          details: { size_bytes: source.size, max_bytes: CHUNKED_JSONPATH_MAX_BYTES },
        },
      );
    }
    return applySelector(await view.slice(0, source.chars), sel, options);
  }
  if (source.chars <= capOf(sel, options)) return applySelector(await view.slice(0, source.chars), sel, options);
  switch (sel.mode) {
    case "headtail":
      return headTail(view, sel, options);
    case "range":
      return range(view, sel, options);
    case "grep":
      return grep(view, sel, options);
  }
}

/** Line and char positions over the chunks, reading (and decoding) each chunk only when needed. */
class ChunkView {
  readonly #cache = new Map<number, string>();
  constructor(readonly source: ChunkSource) {}

  async text(k: number): Promise<string> {
    let text = this.#cache.get(k);
    if (text === undefined) {
      text = decode(await this.source.read(k));
      this.#cache.set(k, text);
      if (this.#cache.size > CACHED_CHUNKS) this.#cache.delete(this.#cache.keys().next().value!);
    }
    return text;
  }

  /** The chunk holding char `pos` (the last chunk for the end). */
  chunkOfChar(pos: number): number {
    const chunks = this.source.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (chunks[mid]!.charsBefore <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  async slice(from: number, to: number): Promise<string> {
    const parts: string[] = [];
    const chunks = this.source.chunks;
    for (let k = this.chunkOfChar(from); k < chunks.length && chunks[k]!.charsBefore < to; k++) {
      const base = chunks[k]!.charsBefore;
      parts.push((await this.text(k)).slice(Math.max(0, from - base), Math.max(0, to - base)));
    }
    return parts.join("");
  }

  /** Char offset where line `n` (1-based) starts. */
  async lineStart(n: number): Promise<number> {
    if (n <= 1) return 0;
    const need = n - 1; // newlines before the line
    const chunks = this.source.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (chunks[mid]!.newlinesBefore + chunks[mid]!.newlines >= need) hi = mid;
      else lo = mid + 1;
    }
    const text = await this.text(lo);
    let at = -1;
    for (let c = need - chunks[lo]!.newlinesBefore; c > 0; c--) at = text.indexOf("\n", at + 1);
    return chunks[lo]!.charsBefore + at + 1;
  }

  /** Char offset just past line `n`'s newline (or the end of the content). */
  async lineEnd(n: number): Promise<number> {
    return n >= this.source.lines ? this.source.chars : this.lineStart(n + 1);
  }

  /** The line (1-based) holding char `pos`. */
  async lineOf(pos: number): Promise<number> {
    const k = this.chunkOfChar(pos);
    const chunk = this.source.chunks[k]!;
    const text = await this.text(k);
    let n = chunk.newlinesBefore + 1;
    for (let at = text.indexOf("\n"); at !== -1 && at < pos - chunk.charsBefore; at = text.indexOf("\n", at + 1)) n++;
    return n;
  }

  /** Line `n` without its newline (and without a trailing \r). */
  async lineText(n: number): Promise<string> {
    let line = await this.slice(await this.lineStart(n), await this.lineEnd(n));
    if (line.endsWith("\n")) line = line.slice(0, -1);
    if (line.endsWith("\r")) line = line.slice(0, -1);
    return line;
  }
}

function decode(bytes: Uint8Array): string {
  try {
    const text = utf8.decode(bytes);
    if (!text.includes("\u0000")) return text;
  } catch {
    // binary: below
  }
  throw new ArefError("UNSUPPORTED", "the content is binary (NUL bytes or invalid UTF-8); selectors work on text", {
    hint: "fetch binary artifacts whole through the store (ArtifactStore.get) instead of a selector",
  });
}

function result(
  selector: Selector,
  text: string,
  view: ChunkView,
  rest: { omitted?: string | undefined; next?: Selector | undefined; stats?: Record<string, number> },
): Selection {
  return {
    selector,
    text,
    chars: text.length,
    total_chars: view.source.chars,
    total_lines: view.source.lines,
    truncated: rest.next !== undefined || rest.omitted !== undefined,
    ...(rest.omitted === undefined ? {} : { omitted: rest.omitted }),
    ...(rest.next === undefined ? {} : { next: rest.next }),
    ...(rest.stats === undefined ? {} : { stats: rest.stats }),
  };
}

/** selectHeadTail over chunks (the same budgets and assembly, packing.ts); reads the head's and the tail's chunks. */
async function headTail(view: ChunkView, selector: HeadTailSelector, options: SelectOptions): Promise<Selection> {
  const cap = capOf(selector, options);
  const total = view.source.lines;
  const length = view.source.chars;
  const plan = planHeadTail(selector, cap, total);
  const { wantHead, wantTail } = plan;
  if (plan.split) {
    const headNeed = await view.lineEnd(Math.min(wantHead, total));
    const tailNeed = total - wantTail >= total ? 0 : length - (await view.lineStart(Math.max(0, total - wantTail) + 1));
    balance(plan, headNeed, tailNeed);
  }
  const { headBudget, tailBudget } = plan;

  const headText = headBudget > 0 ? await view.slice(0, Math.min(headBudget, length)) : "";
  let headEnd = 0;
  let headLines = 0;
  const headLimit = Math.min(wantHead, total);
  while (headLines < headLimit) {
    const nl = headText.indexOf("\n", headEnd);
    const end = nl === -1 ? (headText.length === length ? length : Number.POSITIVE_INFINITY) : nl + 1;
    if (end > headBudget) break;
    headEnd = end;
    headLines++;
  }
  let headPartial = false;
  if (headLines === 0 && headLimit > 0 && headBudget > 0) {
    headEnd = safeCut(headText, headBudget);
    headPartial = headEnd > 0;
  }

  let tailStart = length;
  let tailLines = 0;
  const tailLimit = Math.min(wantTail, total - headLines);
  const windowStart = Math.max(headEnd, length - tailBudget);
  const from = Math.max(0, windowStart - 1); // one char before, to know whether the window starts a line
  const win = tailLimit > 0 && tailBudget > 0 ? await view.slice(from, length) : "";
  if (win !== "") {
    let search = win.length - 2; // a newline at the very end starts no line
    while (tailLines < tailLimit) {
      const nl = search < 0 ? -1 : win.lastIndexOf("\n", search);
      if (nl === -1 && from !== 0) break;
      const s = nl === -1 ? 0 : from + nl + 1;
      if (s < headEnd || length - s > tailBudget) break;
      tailStart = s;
      tailLines++;
      if (nl === -1) break;
      search = nl - 1;
    }
    if (tailLines === 0 && tailLimit > 0 && tailBudget > 0 && !headPartial) {
      const code = win.charCodeAt(windowStart - from);
      tailStart = code >= 0xdc00 && code <= 0xdfff ? windowStart + 1 : windowStart;
    }
  }

  const cut = {
    head: headText.slice(0, headEnd),
    tail: tailStart >= length ? "" : win.slice(tailStart - from),
    headEnd,
    tailStart,
    headLines,
    tailLines,
    headPartial,
    length,
    totalLines: total,
  };
  const packed = assembleHeadTail(
    selector,
    cap,
    tailCutInLine(cut) ? { ...cut, lastOmitted: await view.lineOf(tailStart) } : cut,
  );
  return result(selector, packed.text, view, packed);
}

/** selectRange over chunks: reads the chunks of the lines shown (and of the window's last line, for the count of what is left). */
async function range(view: ChunkView, selector: RangeSelector, options: SelectOptions): Promise<Selection> {
  const cap = capOf(selector, options);
  const total = view.source.lines;
  const start = selector.start;
  if (start > total) {
    throw new ArefError(
      "INVALID_SELECTOR",
      `range starts at line ${fmtInt(start)} but the content has ${fmtInt(total)} line${total === 1 ? "" : "s"}`,
      {
        hint: `ask for a range within lines 1-${fmtInt(total)}`,
        details: { start, total_lines: total },
      },
    );
  }
  const end = Math.min(selector.end ?? total, total);
  const lineStart = await view.lineStart(start);
  const lineEnd = await view.lineEnd(start);
  const offset = selector.offset ?? 0;
  if (offset > 0 && lineStart + offset >= lineEnd) {
    throw new ArefError(
      "INVALID_SELECTOR",
      `offset ${fmtInt(offset)} is past the end of line ${fmtInt(start)} (${fmtInt(lineEnd - lineStart)} chars)`,
      {
        hint: "use an offset within the line, or start at the next line",
      },
    );
  }
  const from = lineStart + offset;
  const window = await view.slice(from, Math.min(from + cap, view.source.chars));
  const windowEnd = window.length === view.source.chars - from ? view.source.chars : -1;
  // Whole lines in the window, up to `end`.
  let last = start - 1;
  let shownEnd = from;
  for (let at = 0; last < end; ) {
    const nl = window.indexOf("\n", at);
    if (nl === -1) {
      if (windowEnd !== -1 && at < window.length && last + 1 === total) {
        last++;
        shownEnd = view.source.chars;
      }
      break;
    }
    last++;
    shownEnd = from + nl + 1;
    at = nl + 1;
  }
  const baseNext = {
    mode: "range" as const,
    ...(selector.end === undefined ? {} : { end: selector.end }),
    ...(selector.maxChars === undefined ? {} : { maxChars: selector.maxChars }),
  };
  if (last >= start) {
    const text = window.slice(0, shownEnd - from);
    const stats = { lines: last - start + 1, first_line: start, last_line: last };
    if (last === end) return result(selector, text, view, { stats });
    const leftChars = (await view.lineEnd(end)) - shownEnd;
    return result(selector, text, view, {
      omitted: `${linesNote(last + 1, end)} (${charsNote(leftChars)}) not shown: over the ${charsNote(cap)} cap`,
      next: { ...baseNext, start: last + 1 },
      stats,
    });
  }
  const cut = Math.max(1, safeCut(window, cap));
  const text = window.slice(0, cut);
  const rangeEnd = await view.lineEnd(end);
  return result(selector, text, view, {
    omitted: `the rest of line ${fmtInt(start)} after char ${fmtInt(offset + cut)}${end > start ? ` and ${linesNote(start + 1, end)}` : ""} (${charsNote(rangeEnd - from - cut)}) not shown: over the ${charsNote(cap)} cap`,
    next: { ...baseNext, start, offset: offset + cut },
    stats: { lines: 0, first_line: start, last_line: start },
  });
}

/**
 * selectGrep over chunks: one pass over the chunks in order (one read ahead, one held) finds the
 * matching line numbers; then only the chunks of the lines shown are read again. Scan and packing
 * are shared with the whole-text grep (packing.ts).
 */
async function grep(view: ChunkView, selector: GrepSelector, options: SelectOptions): Promise<Selection> {
  const cap = capOf(selector, options);
  const re = compileSafeRegex(selector.pattern, selector.ignoreCase ?? false);
  const context = selector.context ?? DEFAULT_GREP_CONTEXT;
  const maxMatches = selector.maxMatches ?? DEFAULT_GREP_MAX_MATCHES;
  // The default limit is per 8 MiB scanned: a linear-time scan of a big artifact takes longer, not pathologically.
  const limitMs =
    options.regexTimeLimitMs ??
    DEFAULT_REGEX_TIME_LIMIT_MS * Math.max(1, Math.ceil(view.source.size / GREP_LIMIT_BYTES));
  const total = view.source.lines;
  const { source } = view;
  const scan = new GrepScan(re, selector, limitMs, total);
  let carry = "";
  const testLine = (line: string) => scan.test(line.endsWith("\r") ? line.slice(0, -1) : line);
  let ahead: Promise<Uint8Array> | undefined = source.read(0);
  for (let k = 0; k < source.chunks.length; k++) {
    const bytes = await ahead!;
    ahead = k + 1 < source.chunks.length ? source.read(k + 1) : undefined;
    ahead?.catch(() => undefined);
    const text = carry + decode(bytes);
    let at = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", at)) {
      testLine(text.slice(at, nl));
      at = nl + 1;
    }
    carry = text.slice(at);
  }
  if (carry !== "") testLine(carry);
  const packed = await driveAsync(packGrep(selector, re, scan.matches, total, cap, context, maxMatches), (n) =>
    view.lineText(n),
  );
  return result(selector, packed.text, view, packed);
}
