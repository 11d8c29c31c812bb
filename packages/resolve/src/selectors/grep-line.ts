import { fmtInt, safeCut } from "../text.js";
import type { compileSafeRegex } from "./regex.js";

/** A line longer than this is shown as a window around its first match. */
const LONG_LINE = 400;
const LONG_LINE_WINDOW = 160;

/** One grep output row: "12:text" for a match, "11-text" for context; a long line is shown as a window around its match. */
export function renderGrepLine(
  n: number,
  text: string,
  isMatch: boolean,
  re: ReturnType<typeof compileSafeRegex>,
): string {
  let line = text;
  if (line.length > LONG_LINE) {
    const at = isMatch ? Math.max(0, re.search(line)) : 0;
    const from = Math.max(0, at - LONG_LINE_WINDOW);
    const to = Math.min(line.length, at + LONG_LINE_WINDOW);
    line = `${from > 0 ? `…[${fmtInt(from)} chars] ` : ""}${line.slice(from, safeCut(line, to))}${to < line.length ? ` …[${fmtInt(line.length - to)} chars]` : ""}`;
  }
  return `${n}${isMatch ? ":" : "-"}${line}`;
}
