/** The reading of a message (ParsedQuery) assembled from its parts: names, tool words, order words, content words, world questions. */
import { ArefError } from "@artifact-refs/schema";
import { VALUE_QUESTION, amountNamed, fillAsked, shareAsked, valueUnitOf } from "./amount-words.js";
import { readParts } from "./compare-parts.js";
import { failureAsked, successAsked } from "./failure-words.js";
import { parseFollowUp } from "./follow-up-words.js";
import { GENERAL_QUESTION } from "./lexicon.js";
import { MAX_MESSAGE_CHARS, dropQuotedPhrases, normalizeMessage, readNames } from "./message-text.js";
import { FIRST_WORDS, LATEST_WORDS, splitNegation } from "./negation.js";
import { ordinalOfTerm, parseTemporal } from "./order-words.js";
import type { ParsedQuery, TemporalOp } from "./query-types.js";
import { readAsks } from "./message-asks.js";
import { readCompounds, readTerms } from "./query-terms.js";
import {
  EXPLETIVE_IT,
  PAST_TENSE,
  PRESENT_WORDS,
  PRONOUN,
  definiteToolNoun,
  hasExecutionNounAfterDemonstrative,
  isReferring,
  mainPointed,
  pointerAtSession,
  sessionPronoun,
  talksAboutSession,
} from "./session-pointers.js";
import { isStatement } from "./statement.js";
import { parseTimeOfDay } from "./time-of-day.js";
import { orderedKind, readHints } from "./tool-hints.js";
import { ASKED_IN_GENERAL, readWorld } from "./world-question.js";

export type { FollowUp, ParsedQuery, QueryTerm, TemporalOp, ValueKind } from "./query-types.js";
export { MAX_MESSAGE_CHARS, normalizeMessage } from "./message-text.js";
export { splitNegation } from "./negation.js";
export { parseClock } from "./clock-words.js";
export { parseTemporal } from "./order-words.js";
export { parseFollowUp } from "./follow-up-words.js";

/** Words besides the time phrase a message may have and still be read as asking by the time alone ("and the df at 9:40?"). */
const TIME_ALONE_WORDS = 3;

/** The time of day a message asks by, unless the message is about the world ("is a class at 7:30 too early?"). */
function timeOfDayAsked(lower: string) {
  const at = parseTimeOfDay(lower);
  if (!at || PAST_TENSE.test(lower) || pointerAtSession(lower)) return at;
  const rest = (lower.replace(at.phrase, " ").match(/[\p{L}\p{N}]+/gu) ?? []).length;
  return rest <= TIME_ALONE_WORDS ? at : undefined;
}

export function parseQuery(input: string): ParsedQuery {
  // Control characters are spaces; a message longer than MAX_MESSAGE_CHARS is read up to it.
  const text = input
    .slice(0, MAX_MESSAGE_CHARS)
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g, " ")
    .trim();
  if (text.length === 0) {
    throw new ArefError("INVALID_INPUT", "the message to resolve is empty", {
      hint: 'pass the user\'s words, e.g. "summarize what I just loaded"',
    });
  }
  const negation = splitNegation(normalizeMessage(text));
  // Quoted phrases that are not names ("translate 'heat pump'") are the object of a task, not a reference.
  const body = dropQuotedPhrases(negation.positive);
  const names = readNames(body);
  const lower = body.toLowerCase().replace(/[’‘]/g, "'");
  const { hints, consumed, verbHintsOnly } = readHints(lower, names);

  // "before and after the fix" names two things (parts below), not one order; "explain the first normal form" names a
  // term of the world, no position among records.
  // "what did you run around 18:40?": a time of day is the order ahead of any other order word — when the message
  // points at the session or is little more than the time ("and at 8:10?"); "is a meeting at 9:30 too early?" names
  // a time of the world.
  const at = timeOfDayAsked(lower);
  const temporal: TemporalOp | undefined = at
    ? { kind: "time", at, why: `"${at.phrase}"` }
    : /\bbefore and after\b/.test(lower) || ordinalOfTerm(lower)
      ? undefined
      : (parseTemporal(lower) ?? negation.order);
  // "the status before the restart vs after": a comparison of two positions keeps its parts (below).
  if (temporal?.kind === "event" && !/\s(?:vs\.?|versus)\s/.test(lower)) {
    // The event clause ("before the migration ran") anchors the order; the rest describes the referent.
    const clause = `${temporal.side} ${temporal.phrase}`;
    const at = lower.indexOf(clause);
    // "right/just after the grep": the modifier belongs to the event clause, not to the rest.
    const head = body.slice(0, at).replace(/\b(?:right|just|immediately|directly)\s*$/i, "");
    const rest = at >= 0 ? `${head} ${body.slice(at + clause.length)}`.trim() : "";
    if (rest.replace(/[^\p{L}\p{N}]/gu, "").length > 0) {
      const inner = parseQuery(rest);
      const within = inner.temporal && inner.temporal.kind !== "event" ? inner.temporal : undefined;
      return {
        ...inner,
        text,
        temporal: within ? { ...temporal, within } : temporal,
        negated: [...inner.negated, ...negation.words],
      };
    }
  }
  // "half an hour ago", "40m back", "around 18:40": the clock phrase or time is the order, none of its words a
  // content word.
  if (temporal?.kind === "time") for (const w of temporal.at.words) consumed.add(w);
  else if (temporal?.kind === "clock") for (const w of temporal.why.match(/[\p{L}\p{N}]+/gu) ?? []) consumed.add(w);
  // "the very first build", "the earlier install": an order word right before a tool noun names that kind outright.
  if (
    temporal &&
    temporal.kind !== "event" &&
    temporal.kind !== "clock" &&
    temporal.kind !== "time" &&
    temporal.kind !== "day"
  )
    orderedKind(lower, hints);
  const statusCodes = [...lower.matchAll(/\b([1-5]\d\d)\b/g)].map((m) => m[1]!);
  const wantsError = failureAsked(lower);
  const past = PAST_TENSE.test(lower);
  const terms = readTerms(body, lower, consumed);
  const sequence = (lower.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.replace(/s$/, ""));
  const { count, parts, partsNamed } = readParts(lower);
  const compounds = readCompounds(lower, terms);
  const general = GENERAL_QUESTION.some((re) => re.test(lower));
  const referring = isReferring(lower, temporal, names);
  const demonstrative = hasExecutionNounAfterDemonstrative(lower);
  const definiteWords = [
    ...lower.matchAll(/\b(?:the|that|this|my)\s+([\w.-]+)(?:\s+([\w.-]+))?(?:\s+([\w.-]+))?/g),
  ].flatMap((m) => [m[1], m[2], m[3]].filter((w): w is string => !!w));
  const followUp = parseFollowUp(lower);
  const aboutSession = talksAboutSession(lower, general);
  // A question, or a request for something new, that points at nothing of the session ("how many tests is too many for
  // a module?", "give me a command to find large files", "what does curl -L do?"): its tool words name a kind in
  // general, no record of that tool.
  if (
    hints.size > 0 &&
    ASKED_IN_GENERAL.test(lower) &&
    !(temporal || referring || demonstrative || past || wantsError || aboutSession || followUp || parts) &&
    // "which of those …", "is it still …": a pronoun for something of the session points at it.
    !/\b(?:those|these)\b/.test(lower) &&
    !sessionPronoun(lower) &&
    names.length === 0
  )
    hints.clear();
  return {
    text,
    terms,
    names,
    hints,
    temporal,
    wantsError,
    statusCodes,
    count,
    parts,
    partsNamed,
    general,
    referring,
    demonstrative,
    definiteWords,
    sequence,
    compounds,
    negated: negation.words,
    followUp,
    asksValue: VALUE_QUESTION.test(lower),
    // A value question, or a message that names the kind of amount itself ("the bundle sizes", "the run times").
    valueUnit:
      fillAsked(lower) ?? shareAsked(lower) ?? (VALUE_QUESTION.test(lower) ? valueUnitOf(lower) : amountNamed(lower)),
    past,
    asksResult: names.length === 0 && /^\s*(which|what|who|how|where|when|did|was|were|is|are)\b/.test(lower),
    aboutSession,
    verbHintsOnly,
    ...readWorld(lower),
    sessionFailure: wantsError && (past || /\b(?:still|anymore|any more|again|now)\b/.test(text.toLowerCase())),
    whichDoes: /^\s*(?:which|what)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:[a-z]+[^s\W]s|is|are|can|does|do)\b/.test(
      text.toLowerCase(),
    ),
    mainPointed: mainPointed(lower),
    wantsSuccess: successAsked(lower, wantsError),
    statement: isStatement(lower),
    definiteToolNoun:
      [...hints.keys()].some((k) => k !== "file" && k !== "data") && definiteToolNoun(text.toLowerCase()),
    topicWords: terms
      .filter((t) => t.weight >= 1 && !parseTemporal(t.word) && !FIRST_WORDS.test(t.word) && !LATEST_WORDS.test(t.word))
      .map((t) => t.word),
    ...readAsks(text.toLowerCase()),
  };
}

/**
 * The message without its words of the present, when those are its only order and nothing else of it points at the
 * session (no pronoun standing for a record, no "you/we did", no "that/the output", no name, no failure): the
 * present ("which provider is cheapest right now?", "does X charge for Y now?") is then no position of the session,
 * and the message is decided as the rest of it would be. Undefined otherwise ("is it busy now?", "what does the log
 * say now?" keep their order).
 */
export function withoutPresent(query: ParsedQuery): ParsedQuery | undefined {
  if (query.temporal?.kind !== "latest" || query.followUp) return undefined;
  const lower = query.text.toLowerCase().replace(/[’‘]/g, "'");
  if (lower.search(PRESENT_WORDS) < 0) return undefined;
  const rest = query.text.replace(PRESENT_WORDS, " ").replace(/\s+/g, " ").trim();
  if (!/[\p{L}\p{N}]/u.test(rest)) return undefined;
  const q = parseQuery(rest);
  // "the current one", "what about now?": the present word is all the message names.
  if (q.topicWords.length === 0) return undefined;
  const pointed =
    q.temporal !== undefined ||
    q.referring ||
    q.demonstrative ||
    q.aboutSession ||
    q.wantsError ||
    q.names.length > 0 ||
    PRONOUN.test(rest.toLowerCase().replace(EXPLETIVE_IT, " "));
  return pointed ? undefined : q;
}
