import { ArefError, type GrepSelector, type Selection } from "@artifact-refs/schema";
import { type LineTable, fmtInt, lineText, safeCut } from "../text.js";
import { DEFAULT_REGEX_TIME_LIMIT_MS, type SelectOptions, capOf, charsNote, selection } from "./common.js";
import { compileSafeRegex } from "./regex.js";

export const DEFAULT_GREP_CONTEXT = 0;
export const DEFAULT_GREP_MAX_MATCHES = 50;
/** A line longer than this is shown as a window around its first match. */
const LONG_LINE = 400;
const LONG_LINE_WINDOW = 160;

/**
 * Lines that match a regex (RE2JS, linear time), with `context` lines around each, grep -n
 * style: "12:match", "11-context", "--" between groups. At most `maxMatches` matches and
 * `maxChars` chars; `next` is the same grep with `skip` set to the first match not shown.
 */
export function selectGrep(
  content: string,
  table: LineTable,
  selector: GrepSelector,
  options: SelectOptions,
): Selection {
  const cap = capOf(selector, options);
  const re = compileSafeRegex(selector.pattern, selector.ignoreCase ?? false);
  const context = selector.context ?? DEFAULT_GREP_CONTEXT;
  const maxMatches = selector.maxMatches ?? DEFAULT_GREP_MAX_MATCHES;
  const skip = selector.skip ?? 0;
  const limitMs = options.regexTimeLimitMs ?? DEFAULT_REGEX_TIME_LIMIT_MS;
  const started = performance.now();

  const matches: number[] = []; // 1-based line numbers
  for (let n = 1; n <= table.count; n++) {
    if ((n & 255) === 1 && performance.now() - started >= limitMs) {
      throw new ArefError(
        "REGEX_TIMEOUT",
        `the grep for /${selector.pattern}/ took longer than ${fmtInt(limitMs)} ms (stopped at line ${fmtInt(n)} of ${fmtInt(table.count)})`,
        {
          hint: "use a more specific pattern, or grep a range of the content",
          details: { pattern: selector.pattern, line: n, total_lines: table.count },
        },
      );
    }
    if (re.test(lineText(content, table, n))) matches.push(n);
  }

  const total = matches.length;
  const pending = matches.slice(skip);
  const blocks: string[] = [];
  let used = 0;
  let shown = 0;
  let lastPrinted = 0; // last line number printed
  let linesShown = 0;
  let cutShort = false;
  const matchSet = new Set(matches);
  for (const line of pending) {
    if (shown >= maxMatches) break;
    const from = Math.max(1, line - context, lastPrinted + 1);
    const to = Math.min(table.count, line + context);
    if (from > to) {
      // Already printed as context of the previous match.
      shown++;
      continue;
    }
    const rows: string[] = [];
    if (lastPrinted > 0 && from > lastPrinted + 1) rows.push("--");
    for (let n = from; n <= to; n++) rows.push(renderLine(content, table, n, matchSet.has(n), re));
    const block = (blocks.length > 0 ? "\n" : "") + rows.join("\n");
    if (used + block.length > cap) {
      if (shown === 0) {
        // Not even the first match fits with its context: show its own line, cut to the cap,
        // so that paging always moves on.
        const only = renderLine(content, table, line, true, re);
        blocks.push(only.slice(0, safeCut(only, cap)));
        used = blocks[0]!.length;
        shown = 1;
        linesShown = 1;
        cutShort = only.length > cap;
      }
      break;
    }
    blocks.push(block);
    used += block.length;
    shown++;
    linesShown += to - from + 1;
    lastPrinted = to;
  }

  const text = blocks.join("");
  const remaining = total - skip - shown;
  const stats = { matches: total, shown_matches: shown, skipped: Math.min(skip, total), lines_shown: linesShown };
  if (remaining <= 0) {
    return selection(selector, text, content, table.count, {
      ...(cutShort ? { omitted: `the rest of line ${fmtInt(pending[0]!)} (over the ${charsNote(cap)} cap)` } : {}),
      stats,
    });
  }
  const firstLeft = matches[skip + shown]!;
  const reason = shown >= maxMatches ? `maxMatches ${fmtInt(maxMatches)}` : `the ${charsNote(cap)} cap`;
  return selection(selector, text, content, table.count, {
    omitted: `matches ${fmtInt(skip + shown + 1)}-${fmtInt(total)} of ${fmtInt(total)} (from line ${fmtInt(firstLeft)}) not shown: ${reason}`,
    next: { ...selector, skip: skip + shown },
    stats,
  });
}

function renderLine(
  content: string,
  table: LineTable,
  n: number,
  isMatch: boolean,
  re: ReturnType<typeof compileSafeRegex>,
): string {
  return renderGrepLine(n, lineText(content, table, n), isMatch, re);
}

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
