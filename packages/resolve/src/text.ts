import { ArefError } from "@artifact-refs/schema";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** True when `text` holds a NUL character: the mark of binary content decoded as text. */
export function looksBinary(text: string): boolean {
  return text.includes("\u0000");
}

/** True when the bytes are not UTF-8 text (a NUL byte in the first 8 KiB, or invalid UTF-8). */
export function isBinaryBytes(bytes: Uint8Array): boolean {
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) return true;
  try {
    utf8.decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/**
 * Content as text for the selectors. Throws UNSUPPORTED for binary content (NUL bytes
 * or invalid UTF-8): a line or JSON selector over binary bytes would return garbage.
 */
export function contentAsText(content: string | Uint8Array): string {
  if (typeof content !== "string" && !(content instanceof Uint8Array)) {
    throw new ArefError(
      "INVALID_INPUT",
      `content must be a string or bytes (Uint8Array), got ${content === null ? "null" : typeof content}`,
      {
        hint: "pass the artifact's text or its bytes",
      },
    );
  }
  if (typeof content === "string") {
    if (looksBinary(content)) throw binaryError(content.length);
    return content;
  }
  if (isBinaryBytes(content)) throw binaryError(content.length);
  return utf8.decode(content);
}

function binaryError(size: number): ArefError {
  return new ArefError(
    "UNSUPPORTED",
    `the content is binary (${size} bytes with NUL bytes or invalid UTF-8); selectors work on text`,
    {
      hint: "fetch binary artifacts whole through the store (ArtifactStore.get) instead of a selector",
      details: { size },
    },
  );
}

/**
 * Line table of a text: `starts[i]` is the offset of line i+1 (1-based lines), and
 * `ends[i]` the offset just past its newline (or the end of the text). A trailing newline
 * does not start another line; an empty text has no lines.
 */
export interface LineTable {
  starts: number[];
  ends: number[];
  count: number;
}

export function lineTable(text: string): LineTable {
  const starts: number[] = [];
  const ends: number[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    starts.push(pos);
    if (nl === -1) {
      ends.push(text.length);
      break;
    }
    ends.push(nl + 1);
    pos = nl + 1;
  }
  return { starts, ends, count: starts.length };
}

/** Line `n` (1-based) without its newline (and without a trailing \r). */
export function lineText(text: string, table: LineTable, n: number): string {
  const start = table.starts[n - 1] ?? 0;
  let end = table.ends[n - 1] ?? start;
  if (end > start && text.charCodeAt(end - 1) === 10) end--;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return text.slice(start, end);
}

/** The largest cut ≤ `at` that does not split a UTF-16 surrogate pair. */
export function safeCut(text: string, at: number): number {
  if (at <= 0) return 0;
  if (at >= text.length) return text.length;
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/** Cuts `s` to at most `max` chars, ending with "…" when cut. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 1) return s.slice(0, safeCut(s, max));
  return `${s.slice(0, safeCut(s, max - 1))}…`;
}

/** "12,408" style number formatting (stable, locale-independent). */
export function fmtInt(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Folds runs of whitespace into one space and trims. */
export function fold(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
