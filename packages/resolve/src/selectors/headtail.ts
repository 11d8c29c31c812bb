import type { HeadTailSelector, Selection } from "@artifact-refs/schema";
import { type LineTable, safeCut } from "../text.js";
import { type SelectOptions, capOf, selection } from "./common.js";
import { assembleHeadTail, balance, planHeadTail, tailCutInLine } from "./packing.js";

/**
 * The first and last lines of the content. Without `head`/`tail`, the cap is split between
 * head and tail. What lies between is replaced by one marker line, and `next` is the range
 * that pages on from the end of the head (following it rebuilds the content exactly).
 * Budgets and assembly are shared with the chunked headtail (packing.ts).
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
  const plan = planHeadTail(selector, cap, total);
  const { wantHead, wantTail } = plan;

  // Whole content requested and it fits: return it as is.
  if (!explicit && content.length <= cap) {
    return selection(selector, content, content, total, { stats: { head_lines: total, tail_lines: 0 } });
  }
  if (explicit && wantHead + wantTail >= total && content.length <= cap) {
    return selection(selector, content, content, total, { stats: { head_lines: total, tail_lines: 0 } });
  }

  balance(
    plan,
    table.ends[Math.min(wantHead, total) - 1] ?? 0,
    content.length - (table.starts[Math.max(0, total - wantTail)] ?? content.length),
  );
  const { headBudget, tailBudget } = plan;

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

  const cut = {
    head: content.slice(0, headEnd),
    tail: content.slice(tailStart),
    headEnd,
    tailStart,
    headLines,
    tailLines,
    headPartial,
    length: content.length,
    totalLines: total,
  };
  const packed = assembleHeadTail(
    selector,
    cap,
    tailCutInLine(cut) ? { ...cut, lastOmitted: lineOf(table, tailStart) } : cut,
  );
  return selection(selector, packed.text, content, total, packed);
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
