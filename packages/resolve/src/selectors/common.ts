import {
  ArefError,
  DEFAULT_FETCH_MAX_CHARS,
  HARD_FETCH_MAX_CHARS,
  type Selection,
  type Selector,
} from "@artifact-refs/schema";
import { fmtInt } from "../text.js";

/** Options shared by every selector. */
export interface SelectOptions {
  /** Cap used when the selector has no maxChars (default 8,000; never above 100,000). */
  defaultMaxChars?: number;
  /** Wall-clock limit for a grep scan, in ms (default 2,000). Over it: REGEX_TIMEOUT. */
  regexTimeLimitMs?: number;
  /** Work budget of a JSONPath with descendant segments (default JSONPATH_WORK_BUDGET, 5e7 ≈ 0.5 s); over it: INVALID_SELECTOR before any evaluation. */
  jsonPathWorkBudget?: number;
}

export const DEFAULT_REGEX_TIME_LIMIT_MS = 2_000;

export function capOf(selector: { maxChars?: number | undefined }, options: SelectOptions): number {
  const cap = selector.maxChars ?? options.defaultMaxChars ?? DEFAULT_FETCH_MAX_CHARS;
  if (!Number.isInteger(cap) || cap < 1 || cap > HARD_FETCH_MAX_CHARS) {
    throw new ArefError(
      "INVALID_SELECTOR",
      `maxChars must be an integer from 1 to ${HARD_FETCH_MAX_CHARS}, got ${cap}`,
      {
        hint: `ask for at most ${HARD_FETCH_MAX_CHARS} chars and page with the "next" selector`,
      },
    );
  }
  return cap;
}

export function selection(
  selector: Selector,
  text: string,
  content: string,
  totalLines: number,
  rest: { omitted?: string | undefined; next?: Selector | undefined; stats?: Record<string, number> },
): Selection {
  const truncated = rest.next !== undefined || rest.omitted !== undefined;
  return {
    selector,
    text,
    chars: text.length,
    total_chars: content.length,
    total_lines: totalLines,
    truncated,
    ...(rest.omitted === undefined ? {} : { omitted: rest.omitted }),
    ...(rest.next === undefined ? {} : { next: rest.next }),
    ...(rest.stats === undefined ? {} : { stats: rest.stats }),
  };
}

export function charsNote(n: number): string {
  return `${fmtInt(n)} char${n === 1 ? "" : "s"}`;
}

export function linesNote(a: number, b: number): string {
  return a === b ? `line ${fmtInt(a)}` : `lines ${fmtInt(a)}-${fmtInt(b)}`;
}
