import { ArefError, type GrepSelector, type HeadTailSelector, type Selector } from "@artifact-refs/schema";
import { fmtInt, safeCut } from "../text.js";
import { charsNote, linesNote } from "./common.js";
import { renderGrepLine } from "./grep-line.js";
import type { compileSafeRegex } from "./regex.js";

/**
 * The packing of grep and headtail answers, shared by the whole-text selectors (grep.ts,
 * headtail.ts: sync, lines from a line table) and the chunked ones (chunked.ts: async, lines read
 * from chunks). Where a packing step needs a line's text it yields the line number and is resumed
 * with the text: `drive` feeds it from a sync reader, `driveAsync` from an async one. So both
 * paths pack, cut and describe what was left out with the same code.
 */
export type LineRequests<R> = Generator<number, R, string>;

export function drive<R>(steps: LineRequests<R>, line: (n: number) => string): R {
  let step = steps.next();
  while (!step.done) step = steps.next(line(step.value));
  return step.value;
}

export async function driveAsync<R>(steps: LineRequests<R>, line: (n: number) => Promise<string>): Promise<R> {
  let step = steps.next();
  while (!step.done) step = steps.next(await line(step.value));
  return step.value;
}

/** What a selector answers besides its text (Selection's `omitted`, `next`, `stats`). */
export interface Packed {
  text: string;
  omitted?: string | undefined;
  next?: Selector | undefined;
  stats: Record<string, number>;
}

type Regex = ReturnType<typeof compileSafeRegex>;

/** Tests lines against the grep's regex in order (line 1 first), under the time limit; collects matching line numbers. */
export class GrepScan {
  readonly matches: number[] = [];
  #n = 0;
  readonly #started = performance.now();

  constructor(
    readonly re: Regex,
    readonly selector: GrepSelector,
    readonly limitMs: number,
    readonly totalLines: number,
  ) {}

  /** The next line's text (without its newline and \r). */
  test(line: string): void {
    const n = ++this.#n;
    if ((n & 255) === 1 && performance.now() - this.#started >= this.limitMs) {
      throw new ArefError(
        "REGEX_TIMEOUT",
        `the grep for /${this.selector.pattern}/ took longer than ${fmtInt(this.limitMs)} ms (stopped at line ${fmtInt(n)} of ${fmtInt(this.totalLines)})`,
        {
          hint: "use a more specific pattern, or grep a range of the content",
          details: { pattern: this.selector.pattern, line: n, total_lines: this.totalLines },
        },
      );
    }
    if (this.re.test(line)) this.matches.push(n);
  }
}

/**
 * grep -n style blocks of the matches from `skip` on, with `context` lines around each, "--"
 * between groups; at most `maxMatches` matches and `cap` chars. `next` is the same grep with
 * `skip` set to the first match not shown.
 */
export function* packGrep(
  selector: GrepSelector,
  re: Regex,
  matches: readonly number[],
  totalLines: number,
  cap: number,
  context: number,
  maxMatches: number,
): LineRequests<Packed> {
  const skip = selector.skip ?? 0;
  const total = matches.length;
  const pending = matches.slice(skip);
  const matchSet = new Set(matches);
  const blocks: string[] = [];
  let used = 0;
  let shown = 0;
  let lastPrinted = 0; // last line number printed
  let linesShown = 0;
  let cutShort = false;
  for (const line of pending) {
    if (shown >= maxMatches) break;
    const from = Math.max(1, line - context, lastPrinted + 1);
    const to = Math.min(totalLines, line + context);
    if (from > to) {
      // Already printed as context of the previous match.
      shown++;
      continue;
    }
    const rows: string[] = [];
    if (lastPrinted > 0 && from > lastPrinted + 1) rows.push("--");
    for (let n = from; n <= to; n++) rows.push(renderGrepLine(n, yield n, matchSet.has(n), re));
    const block = (blocks.length > 0 ? "\n" : "") + rows.join("\n");
    if (used + block.length > cap) {
      if (shown === 0) {
        // Not even the first match fits with its context: show its own line, cut to the cap,
        // so that paging always moves on.
        const only = renderGrepLine(line, yield line, true, re);
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
    return {
      text,
      ...(cutShort ? { omitted: `the rest of line ${fmtInt(pending[0]!)} (over the ${charsNote(cap)} cap)` } : {}),
      stats,
    };
  }
  const firstLeft = matches[skip + shown]!;
  const reason = shown >= maxMatches ? `maxMatches ${fmtInt(maxMatches)}` : `the ${charsNote(cap)} cap`;
  return {
    text,
    omitted: `matches ${fmtInt(skip + shown + 1)}-${fmtInt(total)} of ${fmtInt(total)} (from line ${fmtInt(firstLeft)}) not shown: ${reason}`,
    next: { ...selector, skip: skip + shown },
    stats,
  };
}

/** Room kept for the marker line between head and tail. */
const MARKER_RESERVE = 120;

export interface HeadTailPlan {
  wantHead: number;
  wantTail: number;
  room: number;
  headBudget: number;
  tailBudget: number;
  /** True when both sides are wanted: `balance` with what each side needs gives a side's unused budget to the other. */
  split: boolean;
}

/** The char budgets of a headtail answer. Without `head`/`tail`, the cap is split between head and tail. */
export function planHeadTail(selector: HeadTailSelector, cap: number, totalLines: number): HeadTailPlan {
  const explicit = selector.head !== undefined || selector.tail !== undefined;
  const wantHead = selector.head ?? (explicit ? 0 : totalLines);
  const wantTail = selector.tail ?? (explicit ? 0 : totalLines);
  const room = Math.max(0, cap - (cap > MARKER_RESERVE * 2 ? MARKER_RESERVE : Math.floor(cap / 4)));
  // An explicit head-only or tail-only request gets the whole room.
  if (wantHead === 0) return { wantHead, wantTail, room, headBudget: 0, tailBudget: room, split: false };
  if (wantTail === 0) return { wantHead, wantTail, room, headBudget: room, tailBudget: 0, split: false };
  const headBudget = Math.ceil(room / 2);
  return { wantHead, wantTail, room, headBudget, tailBudget: room - headBudget, split: true };
}

/** Gives a side's unused budget to the other side (`headNeed`/`tailNeed`: the chars the wanted lines take). */
export function balance(plan: HeadTailPlan, headNeed: number, tailNeed: number): void {
  if (!plan.split) return;
  if (headNeed < plan.headBudget) [plan.headBudget, plan.tailBudget] = [headNeed, plan.room - headNeed];
  else if (tailNeed < plan.tailBudget) [plan.headBudget, plan.tailBudget] = [plan.room - tailNeed, tailNeed];
}

export interface HeadTailCut {
  head: string;
  tail: string;
  headEnd: number;
  tailStart: number;
  headLines: number;
  tailLines: number;
  headPartial: boolean;
  /** Total chars and lines of the content. */
  length: number;
  totalLines: number;
  /** The last line left out (needed only when the tail starts inside a line: see `tailCutInLine`). */
  lastOmitted?: number;
}

/** Whether the tail starts inside a line, so the caller must find that line for `lastOmitted`. */
export const tailCutInLine = (cut: Pick<HeadTailCut, "tailLines" | "tailStart" | "length">) =>
  !(cut.tailLines > 0 || cut.tailStart === cut.length);

/** The headtail answer from its cut: head, one marker line, tail; `next` pages on from the end of the head. */
export function assembleHeadTail(selector: HeadTailSelector, cap: number, cut: HeadTailCut): Packed {
  const { head, tail, headEnd, tailStart, headLines, tailLines, headPartial, length, totalLines } = cut;
  const omittedChars = tailStart - headEnd;
  const stats = { head_lines: headLines, tail_lines: tailLines, omitted_chars: omittedChars };
  if (omittedChars === 0) return { text: head + tail, stats };

  // Where the next page starts: the line after the head, or inside the cut first line.
  const nextStart = headPartial ? 1 : headLines + 1;
  const next = {
    mode: "range" as const,
    start: nextStart,
    ...(headPartial ? { offset: headEnd } : {}),
    ...(selector.maxChars === undefined ? {} : { maxChars: selector.maxChars }),
  };
  const firstOmitted = headPartial ? 1 : headLines + 1;
  const lastOmitted = tailCutInLine(cut) ? cut.lastOmitted! : totalLines - tailLines;
  const where = linesNote(firstOmitted, Math.max(firstOmitted, lastOmitted));
  const omitted = `${where} (${charsNote(omittedChars)} of ${charsNote(length)})`;
  let marker = `[… ${omitted} omitted; next: range start=${nextStart}${headPartial ? ` offset=${headEnd}` : ""} …]`;
  const sepBefore = head.length === 0 || head.endsWith("\n") ? "" : "\n";
  const sepAfter = tail.length === 0 ? "" : "\n";
  let text = `${head}${sepBefore}${marker}${sepAfter}${tail}`;
  if (text.length > cap) {
    // Tiny caps: drop the marker to a bare ellipsis, then cut whatever is still over.
    marker = "…";
    text = `${head}${marker}${tail}`;
    if (text.length > cap) text = text.slice(0, safeCut(text, cap));
  }
  return { text, omitted, next, stats };
}
