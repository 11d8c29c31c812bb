import { ArefError, type RangeSelector, type Selection } from "@artifact-refs/schema";
import { type LineTable, fmtInt, safeCut } from "../text.js";
import { type SelectOptions, capOf, charsNote, linesNote, selection } from "./common.js";

/**
 * A window of lines [start, end] (1-based, inclusive), returned as the exact substring of the
 * content (newlines kept), so that following `next` page after page rebuilds the content
 * byte for byte. A line longer than the cap is cut and continued with `offset`.
 */
export function selectRange(
  content: string,
  table: LineTable,
  selector: RangeSelector,
  options: SelectOptions,
): Selection {
  const cap = capOf(selector, options);
  const total = table.count;
  const start = selector.start;
  if (total === 0 ? start > 1 : start > total) {
    throw new ArefError(
      "INVALID_SELECTOR",
      `range starts at line ${fmtInt(start)} but the content has ${fmtInt(total)} line${total === 1 ? "" : "s"}`,
      {
        hint: total === 0 ? "the content is empty" : `ask for a range within lines 1-${fmtInt(total)}`,
        details: { start, total_lines: total },
      },
    );
  }
  if (total === 0) return selection(selector, "", content, 0, { stats: { lines: 0 } });
  const end = Math.min(selector.end ?? total, total);
  const lineStart = table.starts[start - 1]!;
  const lineEnd = table.ends[start - 1]!;
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
  const windowEnd = table.ends[end - 1]!;

  // Largest last line L in [start, end] whose slice fits the cap.
  let last = start - 1;
  {
    let lo = start;
    let hi = end;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (table.ends[mid - 1]! - from <= cap) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
  }
  const baseNext = {
    mode: "range" as const,
    ...(selector.end === undefined ? {} : { end: selector.end }),
    ...(selector.maxChars === undefined ? {} : { maxChars: selector.maxChars }),
  };

  if (last >= start) {
    const text = content.slice(from, table.ends[last - 1]!);
    const shownLines = last - start + 1;
    if (last === end) {
      return selection(selector, text, content, total, {
        stats: { lines: shownLines, first_line: start, last_line: last },
      });
    }
    const leftChars = windowEnd - table.ends[last - 1]!;
    return selection(selector, text, content, total, {
      omitted: `${linesNote(last + 1, end)} (${charsNote(leftChars)}) not shown: over the ${charsNote(cap)} cap`,
      next: { ...baseNext, start: last + 1 },
      stats: { lines: shownLines, first_line: start, last_line: last },
    });
  }

  // The (rest of the) first line alone exceeds the cap: cut it and continue with an offset.
  const cut = Math.max(1, safeCut(content, from + cap) - from);
  const text = content.slice(from, from + cut);
  return selection(selector, text, content, total, {
    omitted: `the rest of line ${fmtInt(start)} after char ${fmtInt(offset + cut)}${end > start ? ` and ${linesNote(start + 1, end)}` : ""} (${charsNote(windowEnd - from - cut)}) not shown: over the ${charsNote(cap)} cap`,
    next: { ...baseNext, start, offset: offset + cut },
    stats: { lines: 0, first_line: start, last_line: start },
  });
}
