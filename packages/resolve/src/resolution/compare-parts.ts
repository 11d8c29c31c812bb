/** Comparisons and plurals: "compare A with B", "A vs B", "the first and the last status", "before and after the fix", "the two READMEs". */
import { numberWord } from "./lexicon.js";
import type { ParsedQuery } from "./query-types.js";

/** How many executions the message asks for, and the parts of a comparison (each resolved on its own). */
export function readParts(lower: string): Pick<ParsedQuery, "count" | "parts" | "partsNamed"> {
  let count: number | undefined;
  for (const w of lower.match(/\b(two|both|pair|three|four|five)\b/g) ?? []) count = numberWord(w);
  let parts: string[] | undefined;
  let partsNamed = false;
  const cut = (p: string) => p.split(/[,;?!]|\.(?:\s|$)/)[0]!.trim();
  const strip = (p: string) =>
    p.replace(/^\s*(?:please\s+)?(?:compare|diff|contrast|differences? between)\s+/, "").trim();
  const beforeAfter = /^(.*?)\s*\bbefore and after\s+(.+)$/.exec(lower);
  // "line up A against B", "put A next to B": a comparison in other words.
  const cmp =
    /\b(?:compare|diff|contrast|line up|differences? between|(?:changed|changes?) between)\s+(.+?)\s+(?:with|and|to|against|next to|beside|alongside|vs\.?|versus)\s+(.+)$/.exec(
      lower,
    ) ?? /\b(?:put|place|lay|show)\s+(.+?)\s+(?:next to|beside|alongside|side by side with)\s+(.+)$/.exec(lower);
  const versus = /(?:^|[,;:.!?]\s*)([^,;:.!?]+?)\s+(?:vs\.?|versus)\s+(.+)$/.exec(lower);
  // "the first and the last status": two positions of one kind.
  const pair =
    /^(.*?)\b(first|initial|earliest|original|oldest)\s+and\s+(?:the\s+)?(last|latest|final|current|newest|most recent)\s+(.+)$/.exec(
      lower,
    );
  if (pair && !cmp) {
    const what = cut(pair[4]!);
    parts = [`${strip(pair[1]!)} ${pair[2]} ${what}`.trim(), `the ${pair[3]} ${what}`];
    count = Math.max(count ?? 0, 2);
  } else if (beforeAfter && beforeAfter[1]!.trim()) {
    // "the profile before and after the fix": the one before the event, then the one after it.
    const what = strip(beforeAfter[1]!);
    const event = cut(beforeAfter[2]!);
    parts = [`${what} before ${event}`, `${what} after ${event}`];
    count = Math.max(count ?? 0, 2);
  } else if (cmp) {
    parts = [cmp[1]!, cut(cmp[2]!)];
    count = Math.max(count ?? 0, 2);
  } else if (versus) {
    // "q1 vs q2 actuals": each side names something of the session, or it is a general comparison.
    parts = [versus[1]!.trim(), cut(versus[2]!)];
    count = Math.max(count ?? 0, 2);
  } else if (/\b(compare|side[- ]by[- ]side)\b/.test(lower)) count = Math.max(count ?? 0, 2);
  if (parts) parts = oneOfTheSameKind(parts);
  if (parts)
    partsNamed = parts.every((p) =>
      (p.match(/[\p{L}\p{N}_]+(?:[.\-/][\p{L}\p{N}_]+)*/gu) ?? []).some((w) => /[._\d/]/.test(w)),
    );
  return { count, parts, partsNamed };
}

/** Order words that pick one record of a kind. */
const ORDER =
  "first|initial|earliest|original|oldest|last|latest|final|current|newest|most recent|previous|second|third";

/**
 * "compare the first net total with the final one": a second part that is only an order word and "one" names a record of
 * the kind the first part names after its own order word ("the last net total").
 */
function oneOfTheSameKind(parts: string[]): string[] {
  const [a, b, ...rest] = parts;
  if (a === undefined || b === undefined) return parts;
  const one = new RegExp(`^((?:the\\s+)?(?:very\\s+)?(?:${ORDER}))\\s+ones?$`).exec(b.trim());
  const kind = new RegExp(`\\b(?:${ORDER})\\s+(.+)$`).exec(a.trim());
  if (!one || !kind) return parts;
  // "the final one" is the last of the kind.
  return [a, `${one[1]!.replace(/\bfinal$/, "last")} ${kind[1]}`, ...rest];
}
