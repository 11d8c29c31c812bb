import type { GrepSelector, Selection } from "@artifact-refs/schema";
import { type LineTable, lineText } from "../text.js";
import { DEFAULT_REGEX_TIME_LIMIT_MS, type SelectOptions, capOf, selection } from "./common.js";
import { GrepScan, drive, packGrep } from "./packing.js";
import { compileSafeRegex } from "./regex.js";

export { renderGrepLine } from "./grep-line.js";

export const DEFAULT_GREP_CONTEXT = 0;
export const DEFAULT_GREP_MAX_MATCHES = 50;

/**
 * Lines that match a regex (RE2JS, linear time), with `context` lines around each, grep -n
 * style: "12:match", "11-context", "--" between groups. At most `maxMatches` matches and
 * `maxChars` chars; `next` is the same grep with `skip` set to the first match not shown.
 * The packing is shared with the chunked grep (packing.ts).
 */
export function selectGrep(
  content: string,
  table: LineTable,
  selector: GrepSelector,
  options: SelectOptions,
): Selection {
  const cap = capOf(selector, options);
  const re = compileSafeRegex(selector.pattern, selector.ignoreCase ?? false);
  const scan = new GrepScan(re, selector, options.regexTimeLimitMs ?? DEFAULT_REGEX_TIME_LIMIT_MS, table.count);
  for (let n = 1; n <= table.count; n++) scan.test(lineText(content, table, n));
  const packed = drive(
    packGrep(
      selector,
      re,
      scan.matches,
      table.count,
      cap,
      selector.context ?? DEFAULT_GREP_CONTEXT,
      selector.maxMatches ?? DEFAULT_GREP_MAX_MATCHES,
    ),
    (n) => lineText(content, table, n),
  );
  return selection(selector, packed.text, content, table.count, packed);
}
