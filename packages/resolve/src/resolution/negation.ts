/** What the message sets aside ("not the first run", "so much for android", "instead of the log"). */
import { EXECUTION_NOUNS } from "./lexicon.js";
import type { TemporalOp } from "./query-types.js";
import { isStopword, stem } from "./tokens.js";

/** Cues that set a thing aside: "not the first run", "so much for android", "instead of the log". */
const NEGATION_RE =
  /\b(?:not\s+(?=the\b|that\b|this\b|those\b|my\b|your\b|our\b)|not (?:specific|particular|tied) to\s+|never ?mind\s+|forget(?:\s+about)?\s+|so much for\s+|instead of\s+|rather than\s+|other than\s+|apart from\s+|except(?:\s+for)?\s+)((?:the|that|this|those|my|your|our)\s+)?([^,;.!?]+?)\s*(?=,|;|\.(?:\s|$)|!|\?|\bbut\b|$)/gi;
export const FIRST_WORDS = /\b(first|earliest|original|oldest|initial)\b/;
export const LATEST_WORDS = /\b(last|latest|newest|recent|current)\b|^(this|that)(\s+one)?$/;

/**
 * The message without what it sets aside, the content words set aside, and the order the
 * set-aside words imply when nothing else gives one ("not the first one" → a later one).
 */
export function splitNegation(text: string): { positive: string; words: string[]; order: TemporalOp | undefined } {
  const words: string[] = [];
  let order: TemporalOp | undefined;
  const positive = text.replace(NEGATION_RE, (_whole, _det: string | undefined, what: string) => {
    const lowered = what.toLowerCase().trim();
    if (FIRST_WORDS.test(lowered)) order ??= { kind: "latest", why: `not "${lowered}"` };
    else if (LATEST_WORDS.test(lowered)) order ??= { kind: "previous", why: `not "${lowered}"` };
    // The kind of thing stays ("not the first test run, the second": test runs); names and order words go.
    const kept: string[] = [];
    // "not the first trigger, …": an order word sets aside a position among records of the kind its noun names;
    // the noun stays as the kind.
    const ordered = FIRST_WORDS.test(lowered) || LATEST_WORDS.test(lowered);
    for (const w of lowered.match(/[\p{L}\p{N}_]+/gu) ?? []) {
      if (ordered && !(w.length < 2 || isStopword(w) || FIRST_WORDS.test(w) || LATEST_WORDS.test(w))) {
        if (w !== "one" && w !== "ones") kept.push(w);
        continue;
      }
      if (EXECUTION_NOUNS.has(w) || EXECUTION_NOUNS.has(w.replace(/s$/, ""))) {
        if (w !== "one" && w !== "ones") kept.push(w);
        continue;
      }
      if (w.length < 2 || isStopword(w) || FIRST_WORDS.test(w) || LATEST_WORDS.test(w)) continue;
      words.push(stem(w));
    }
    return ` ${kept.join(" ")} , `;
  });
  return { positive, words, order };
}
