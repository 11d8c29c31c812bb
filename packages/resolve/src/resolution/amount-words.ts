/** Questions that ask for an amount, and the kind of amount asked (a size, a duration, how full). */
import type { ParsedQuery, ValueKind } from "./query-types.js";

/** Words that ask for an amount of a kind: a size in bytes, or a duration. */
const UNIT_WORDS: Record<Exclude<ValueKind, "fill">, RegExp> = {
  size: /^(disk|space|size|sizes|storage|memory|ram|footprint|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?|kb|mb|gb|tb|kib|mib|gib|big|bigger|large|larger|heavy)$/,
  duration:
    /^(time|times|took|duration|latency|elapsed|runtime|fast|faster|slow|slower|quick|quickly|seconds?|minutes?|hours?|ms|secs?|mins?)$/,
};

/** The kind of amount a value question asks for, from its words ("how long did/does …" asks a duration). */
export function valueUnitOf(lower: string): ParsedQuery["valueUnit"] {
  const words = lower.match(/[a-z]+/g) ?? [];
  for (const kind of ["size", "duration"] as const) {
    const said = words.filter((w) => UNIT_WORDS[kind].test(w));
    if (kind === "duration" && /\bhow long (?:did|does|do|will|would|was|were|has|had|to|it)\b/.test(lower))
      said.push("long");
    if (said.length) return { kind, words: [...new Set(said)] };
  }
  return undefined;
}

/** How full something is ("how full", "close to full", "filling up", "running out of space"): asks for a share used. */
const FILL_ASK =
  /\bhow full\b|\b(?:close|closer|closest|near|nearly|almost|getting)\s+(?:to\s+)?(?:full|filling|capacity)\b|\bfill(?:ing|s|ed)?\s+up\b|\brunning out of (?:space|room|disk|memory)\b|\bout of (?:space|room)\b/;

export function fillAsked(lower: string): ParsedQuery["valueUnit"] {
  const m = FILL_ASK.exec(lower);
  return m ? { kind: "fill", words: m[0].match(/[a-z]+/g) ?? [] } : undefined;
}

/** "what share of the keys …", "what percentage of requests …": asks for a share, as "how full" does ("41%", "3 of 8"). */
const SHARE_ASK = /\b(?:what|which)\s+(?:share|percentage|percent|fraction|proportion|portion)\s+of\b/;

export function shareAsked(lower: string): ParsedQuery["valueUnit"] {
  const m = SHARE_ASK.exec(lower);
  return m ? { kind: "fill", words: m[0].match(/[a-z]+/g) ?? [] } : undefined;
}

/** "sizes", "durations", "timings": a plural that names a kind of amount asks for the amounts themselves. */
export function amountNamed(lower: string): ParsedQuery["valueUnit"] {
  if (/\b(sizes|file sizes|durations|timings|run ?times|latencies)\b/.test(lower)) return valueUnitOf(lower);
  return undefined;
}

/** Questions whose answer is an amount: the result that gives a number for the message's words answers them. */
export const VALUE_QUESTION =
  /\bhow\s+(many|much|big|large|small|long|full|fast|slow|often|old|high|low|far|heavy|busy|close)\b|\bwhat\s+(?:was|is|were|are|'s)\s+(?:the\s+)?(?:\w+\s+)?(count|number|total|size|rate|amount|percentage|percent|share|ratio|score|average|mean|median|p\d+|latency|usage|peak|max|maximum|min|minimum)\b/;
