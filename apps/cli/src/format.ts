/** Small formatting helpers for human output. */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair. */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** One line, whitespace folded, at most `max` chars (with an ellipsis when cut). */
export function oneLine(text: string, max: number): string {
  const folded = text.replace(/\s+/g, " ").trim();
  return folded.length > max ? `${cutChars(folded, max - 1)}…` : folded;
}

/** Pads the columns of `rows` to a table (the last column is not padded). */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * Characters a terminal acts on instead of printing: C0 controls except tab and newline (a CR
 * only when it does not end a CRLF), DEL, C1 controls, and the bidi overrides that reorder what is
 * shown. ESC/OSC sequences in a label or summary could otherwise retitle the window, clear the
 * screen, write to the clipboard or hide text.
 */
const TERMINAL_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

/**
 * `text` with every terminal control character written as a visible `\uXXXX` escape. The escape
 * is also a valid JSON string escape, so JSON output stays valid and decodes to the same value.
 */
export function terminalSafe(text: string): string {
  TERMINAL_CONTROL.lastIndex = 0;
  if (!TERMINAL_CONTROL.test(text)) return text;
  return text.replace(TERMINAL_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
