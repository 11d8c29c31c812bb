/** What in a message points at the session: a record noun pointed at, "you/we did", a pronoun for a record, the present state. */
import { EXECUTION_NOUNS } from "./lexicon.js";
import { parseTemporal } from "./order-words.js";
import type { TemporalOp } from "./query-types.js";
import { THIRD_PARTY } from "./tool-hints.js";
import { joinWorldCompounds } from "./message-text.js";
import { regularPast } from "./past-forms.js";

/**
 * A participle after a determiner is an adjective ("the shared config", "a detailed log", "the left table"), and after
 * "be" a passive of no time ("should logs be rotated?", "can builds be made faster?"): no action of the past.
 */
const ATTRIBUTIVE =
  "(?<!\\b(?:the|a|an|my|our|your|this|that|these|those|its|their|some|any|every|each|no|be|being)\\s+)";

/** A past-tense verb: "was", "did", "came", "took", "found", or a regular "-ed" form. */
export const PAST_TENSE = new RegExp(
  `\\b(was|were|did|had|got|came|went|took|ran|saw|gave|wrote|grew|fell|rose|showed|been|${ATTRIBUTIVE}(?:found|made|read|left|shown|done|${regularPast(3)}))\\b`,
);

/** "you/we did …", "i just read …": a person and an action in the past. */
const PERSON_DID = new RegExp(
  `\\b(i|you|we)\\s+(just\\s+|had\\s+|have\\s+|'ve\\s+)?(${regularPast(1, "\\w")}|read|ran|got|did|saw|made|wrote|found|sent|put|tried)\\b`,
);

/**
 * Cues that a message talks about the session's own things and actions (ParsedQuery.aboutSession): "you"/"we"
 * doing something (not a request: "can you help"), "it"/"they" as the subject of a verb ("won't it", "did they"),
 * an irregular past-tense verb of an action (regular "-ed" words are too often adjectives: "based", "expected";
 * "was"/"were" as often ask about history in general), or the
 * current state of a thing ("the new setting", "still", "right now").
 */
export const SESSION_TALK: RegExp[] = [
  /(?<!\b(?:can|could|would|will|wo)(?:n'?t)?\s+)\b(?:you|we)\s+(?!should\b|think\b|know\b|recommend\b|help\b|please\b|prefer\b|suggest\b|believe\b|reckon\b)(?:\w+n'?t\s+|just\s+|also\s+|actually\s+)?[a-z]{2,}/,
  /\b(?:did|does|do|didn'?t|doesn'?t|won'?t|wont|can'?t|cant|will|would|has|have|had)\s+(?:it|they)\b/,
  new RegExp(
    `\\b(?:did|got|came|went|took|ran|saw|gave|wrote|grew|fell|rose|showed|${ATTRIBUTIVE}(?:found|left|shown|done))\\b`,
  ),
  /\bthe\s+(?:new|old|current|latest|fresh|same|existing|remaining)\b|\b(?:today|right now|currently|still|anymore|so far)\b/,
  // A pointer at a thing in view: "this box", "that module", "in there", "the invoice thing".
  /\b(?:in|from|out of|on|of) there\b|\bthe\s+\w+\s+(?:thing|stuff)\b/,
];

/** Words of the present ("now", "right now", "currently", "the current", "at the moment"); "just now" is the recent past. */
export const PRESENT_WORDS =
  /(?<!\bjust\s)\b(?:right now|as of (?:now|today)|by now|at (?:the|this) (?:moment|point)|these days|nowadays|currently|presently|current|now)\b/gi;

/** "it", "they", "them": a pronoun standing for something of the session ("is it busy?"), not "is it true that …". */
export const PRONOUN = /\b(?:it|its|they|them|their)\b/;
export const EXPLETIVE_IT =
  /\b(?:is|was|isn't|wasn't|would|will)\s+it\s+(?:be\s+)?(?:true|possible|worth|normal|common|usual|ok|okay|safe|better|worse|bad|good|fine|wise|smart|cheaper|faster|an? \w+ idea)\b|\bit (?:depends|seems|looks like)\b/g;

/** "the routes file", "the test run", "the docs page": a definite description of an execution. */
export function definiteExecutionNoun(lower: string): boolean {
  for (const m of joinWorldCompounds(lower).matchAll(/\bthe\s+((?:[\w.-]+\s+){0,2}?)([\w-]+)\b/g)) {
    if (EXECUTION_NOUNS.has(m[2]!) || EXECUTION_NOUNS.has(m[2]!.replace(/s$/, ""))) return true;
  }
  return false;
}

export function hasExecutionNounAfterDemonstrative(lower: string): boolean {
  // "that"/"this" before a verb in -s opens a relative clause ("a test that checks …", "a tool that logs …"); it does
  // not point ("that check", "those checks").
  const pointing = joinWorldCompounds(lower).replace(/\b(?:that|this)\s+(?=[a-z]*[^aiosu']s\b)/g, "which ");
  for (const m of pointing.matchAll(/\b(?:that|this|those|these|my|your|our)\s+((?:[\w-]+\s+){0,2}?)([\w-]+)\b/g)) {
    const ws = `${m[1] ?? ""}${m[2]}`.trim().split(/\s+/);
    if (ws.some((w) => EXECUTION_NOUNS.has(w) || EXECUTION_NOUNS.has(w.replace(/s$/, "")))) return true;
  }
  return false;
}

/**
 * Something in the message points at the session, words of the present and of a continuing state ("now", "still",
 * "today") aside: an order word, "that/this" with a record noun or as a pronoun ("is that normal?"), "you/we did", a
 * definite record noun ("the log"), a pronoun standing for a record ("is it busy?"), or talk of the session's actions.
 */
export function pointerAtSession(lower: string): boolean {
  const calm = lower
    .replace(PRESENT_WORDS, " ")
    .replace(/\b(?:still|anymore|any more|so far|today|these days)\b/g, " ");
  return (
    parseTemporal(calm) !== undefined ||
    hasExecutionNounAfterDemonstrative(calm) ||
    PERSON_DID.test(calm) ||
    /\bthe\s+[\w.-]+\s+(i|you|we)\b/.test(calm) ||
    /\b(again|once more)\b/.test(calm) ||
    definiteExecutionNoun(calm) ||
    SESSION_TALK.some((re) => re.test(calm)) ||
    sessionPronoun(calm) ||
    /\b(?:is|was|are|were|isn't|wasn't)\s+(?:that|this|these|those)\b|\b(?:that|this)\s*[?.!]*\s*$/.test(calm)
  );
}

/**
 * A pronoun standing for something of the session: not an expletive ("is it worth …"), and not one that takes up a
 * thing the message itself brought in before it with "a"/"an"/"any" ("how long can a url get before browsers choke
 * on it?": "it" is the url).
 */
export function sessionPronoun(lower: string): boolean {
  const text = lower.replace(EXPLETIVE_IT, " ");
  const at = text.search(PRONOUN);
  if (at < 0) return false;
  return !/\b(?:an?|any)\s+[a-z]/.test(text.slice(0, at));
}

/** The main clause points at a record (a demonstrative with a record noun) or at a position. */
export function mainPointed(lower: string): boolean {
  const main = lower.split(/\b(?:so|when|whenever|before|after|if|because|until|once|while)\b/)[0] ?? lower;
  // "that"/"this" before a verb in -s opens a relative clause ("monitoring that pages us"), it does not point
  // ("that page", "those pages").
  const pointing = main.replace(/\b(?:that|this)\s+(?=[a-z]*[^aiosu']s\b)/g, "which ");
  return hasExecutionNounAfterDemonstrative(pointing) || parseTemporal(main) !== undefined;
}

/** A definite reference to something of the session: an order, "that/my" + a record noun, "what I just ...", a name. */
export function isReferring(lower: string, temporal: TemporalOp | undefined, names: string[]): boolean {
  return (
    temporal !== undefined ||
    (/\b(that|this|those|these|my|your|our)\s+(\w+\s+)?(\w+)\b/.test(lower) &&
      hasExecutionNounAfterDemonstrative(lower)) ||
    PERSON_DID.test(lower) ||
    /\bthe\s+[\w.-]+\s+(i|you|we)\b/.test(lower) ||
    /\b(again|once more)\b/.test(lower) ||
    definiteExecutionNoun(lower) ||
    names.length > 0
  );
}

/** The message talks about the session (ParsedQuery.aboutSession); "we never did it before": what was never done is no action of the session. */
export function talksAboutSession(lower: string, general: boolean): boolean {
  return (
    !general &&
    SESSION_TALK.some((re) =>
      re.test(
        lower.replace(THIRD_PARTY, " ").replace(/\b(?:i|we|you)\s+(?:have\s+|had\s+|'ve\s+)?never\b[^,;:.!?]*/g, " "),
      ),
    )
  );
}

/**
 * A definite noun of a tool's record ("the tests", "the query", "the log"), words of the world in compounds ("the
 * command line") aside: with a tool word, it makes a how-to or general question one about the session.
 */
export function definiteToolNoun(lower: string): boolean {
  return /\bthe\s+((?:[\w.-]+\s+){0,2}?)(test|tests|run|query|search|listing|command|call|request|endpoint|page|log|file|build|output|result|error|response)\b/.test(
    joinWorldCompounds(lower),
  );
}
