import type { HeadTailSelector, Selection } from "@artifact-refs/schema";
import { type LineTable, safeCut } from "../text.js";
import { type SelectOptions, capOf, charsNote, linesNote, selection } from "./common.js";

/** Room kept for the marker line between head and tail. */
const MARKER_RESERVE = 120;

/**
 * The first and last lines of the content. Without `head`/`tail`, the cap is split between
 * head and tail. What lies between is replaced by one marker line, and `next` is the range
 * that pages on from the end of the head (following it rebuilds the content exactly).
 */
export function selectHeadTail(
  content: string,
  table: LineTable,
  selector: HeadTailSelector,
  options: SelectOptions,
): Selection {
  const cap = capOf(selector, options);
  const total = table.count;
  const explicit = selector.head !== undefined || selector.tail !== undefined;
  const wantHead = selector.head ?? (explicit ? 0 : total);
  const wantTail = selector.tail ?? (explicit ? 0 : total);

  // Whole content requested and it fits: return it as is.
  if (!explicit && content.length <= cap) {
    return selection(selector, content, content, total, { stats: { head_lines: total, tail_lines: 0 } });
  }
  if (explicit && wantHead + wantTail >= total && content.length <= cap) {
    return selection(selector, content, content, total, { stats: { head_lines: total, tail_lines: 0 } });
  }

  const room = Math.max(0, cap - (cap > MARKER_RESERVE * 2 ? MARKER_RESERVE : Math.floor(cap / 4)));
  // Char budgets: an explicit head-only or tail-only request gets the whole room.
  let headBudget: number;
  let tailBudget: number;
  if (wantHead === 0) [headBudget, tailBudget] = [0, room];
  else if (wantTail === 0) [headBudget, tailBudget] = [room, 0];
  else {
    headBudget = Math.ceil(room / 2);
    tailBudget = room - headBudget;
    // Give a side's unused budget to the other side.
    const headNeed = table.ends[Math.min(wantHead, total) - 1] ?? 0;
    const tailNeed = content.length - (table.starts[Math.max(0, total - wantTail)] ?? content.length);
    if (headNeed < headBudget) [headBudget, tailBudget] = [headNeed, room - headNeed];
    else if (tailNeed < tailBudget) [headBudget, tailBudget] = [room - tailNeed, tailNeed];
  }

  // Head: whole lines within the budget (at most wantHead); a first line longer than the budget is cut.
  let headEnd = 0; // char offset
  let headLines = 0;
  const headLimit = Math.min(wantHead, total);
  while (headLines < headLimit && table.ends[headLines]! <= headBudget) {
    headEnd = table.ends[headLines]!;
    headLines++;
  }
  let headPartial = false;
  if (headLines === 0 && headLimit > 0 && headBudget > 0) {
    headEnd = safeCut(content, headBudget);
    headPartial = headEnd > 0;
  }

  // Tail: whole lines from the end within the budget (at most wantTail), never overlapping the head.
  let tailStart = content.length;
  let tailLines = 0;
  const tailLimit = Math.min(wantTail, total - headLines);
  while (tailLines < tailLimit) {
    const s = table.starts[total - tailLines - 1]!;
    if (s < headEnd || content.length - s > tailBudget) break;
    tailStart = s;
    tailLines++;
  }
  if (tailLines === 0 && tailLimit > 0 && tailBudget > 0 && !headPartial) {
    const s = Math.max(headEnd, content.length - tailBudget);
    // Do not split a surrogate pair at the tail's start.
    const code = content.charCodeAt(s);
    tailStart = code >= 0xdc00 && code <= 0xdfff ? s + 1 : s;
  }

  const head = content.slice(0, headEnd);
  const tail = content.slice(tailStart);
  const omittedChars = tailStart - headEnd;
  const stats = { head_lines: headLines, tail_lines: tailLines, omitted_chars: omittedChars };
  if (omittedChars === 0) return selection(selector, head + tail, content, total, { stats });

  // Where the next page starts: the line after the head, or inside the cut first line.
  const nextStart = headPartial ? 1 : headLines + 1;
  const next = {
    mode: "range" as const,
    start: nextStart,
    ...(headPartial ? { offset: headEnd } : {}),
    ...(selector.maxChars === undefined ? {} : { maxChars: selector.maxChars }),
  };
  const firstOmitted = headPartial ? 1 : headLines + 1;
  const lastOmitted = tailLines > 0 || tailStart === content.length ? total - tailLines : lineOf(table, tailStart);
  const where = linesNote(firstOmitted, Math.max(firstOmitted, lastOmitted));
  const omitted = `${where} (${charsNote(omittedChars)} of ${charsNote(content.length)})`;
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
  return selection(selector, text, content, total, { omitted, next, stats });
}

function lineOf(table: LineTable, offset: number): number {
  let lo = 0;
  let hi = table.count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (table.starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
