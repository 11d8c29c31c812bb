/** Order words: which execution by its position ("the last one", "the one before", "the second file", "before my edit"). */
import { EXECUTION_NOUNS } from "./lexicon.js";
import type { TemporalOp } from "./query-types.js";
import { isStopword } from "./tokens.js";
import { verbsAsNouns } from "./verb-nouns.js";
import { parseClock } from "./clock-words.js";
import { JUST_ONLY, regularPast } from "./past-forms.js";

/**
 * The latest execution named by order alone ("the last one", "the most recent step", "the final command"),
 * up to the end of the clause, after one more word (a verb: "the last one say") when an execution noun is
 * named; without one only a verb of what it did may follow ("before the last deploy" is an event).
 */
const LATEST_REF =
  "(?:the|my|your|our|that|this)\\s+(?:very\\s+)?(?:last|latest|most recent|newest|final)(?:\\s+(?:one|step|thing|action|command|call|execution|tool call|result|output)(?:\\s+[a-z]+)?\\s*(?:[?.!,;]|$)|\\s*(?:[?.!,;]|$|(?:say|said|says|take|took|takes|do|did|does|show|showed|print|printed|return|returned|give|gave|output|produce|produced)\\b))";

/** "we just …", "just ran", "just now": a recent action ("i just need …" asks for something, it orders nothing). */
const JUST_DONE = new RegExp(
  `\\b(i|you|we)\\s+just\\b${JUST_ONLY}|\\bjust\\s+${JUST_ONLY}(now|${regularPast(1, "\\w")}|read|ran|run|did|got|saw|wrote|made|sent)\\b`,
);

/** "before that happened", "after this ran": "that"/"this" stands for the referent itself, no event. */
const THAT_DID = new RegExp(
  `^(?:this|that)\\s*(?:$|one\\b|${regularPast()}\\b|(?:is|was|were|went|broke|ran|came|did|does|do|got|gets|goes|will|would|has|had)\\b)`,
);

/** A failure pointed at without a name: "that failure", "that 500", "why did it fail?", "it went red". */
export const POINTED_FAILURE =
  /\b(?:that|this)\s+(?:failure|error|crash|exception|traceback|[45]\d\d)\b|\b(?:did|does|has) (?:that|this|it) (?:fail|break|crash|error)\b|\bit (?:went|turned|has gone) red\b/;

/** A position inside a content or a span of time, not among records: "the first line of", "the last week". */
const CONTENT_POSITION =
  /^(?:of|line|lines|row|rows|column|columns|col|cols|entry|entries|item|items|element|elements|field|fields|word|words|char|chars|character|characters|byte|bytes|paragraph|paragraphs|section|sections|chapter|chapters|sentence|sentences|page|pages|half|part|few|couple|week|weeks|month|months|year|years|night|day|days|hour|hours|minute|minutes|time|times|place|one|ones|\d+)$/;

/** Order words: "just", "the last one", "the earlier one", "the one before", "first time", "before my edit". */
export function parseTemporal(lower: string): TemporalOp | undefined {
  // "the third thing you did", "the very first step": an ordinal of a generic noun counts every execution.
  // "the second thing you searched for": a clause with a verb of its own after the generic noun names the kind
  // (a verb that names no kind, "did", "tried", keeps the count over the whole session).
  const overall = (ordinal: string) =>
    new RegExp(
      `\\b${ordinal}\\s+(?:thing|things|step|steps|action|actions)\\b(?!\\s+(?:that\\s+|which\\s+)?(?:i|you|we|u)\\s+(?!(?:did|do|done|does|tried|try|made|make|had|have|got|said|asked|mentioned|told|wanted|needed|were|was|ran|run|executed|called)\\b)(?:${regularPast()}|ran|wrote|read|built)\\b)`,
    ).test(lower)
      ? { overall: true }
      : {};
  const nounAfter = (re: RegExp) => {
    for (const m of lower.matchAll(re)) {
      const after = lower
        .slice(m.index! + m[0].length)
        .trim()
        .split(/[^\w'-]+/)
        .slice(0, 3);
      if (after.length === 0 || after[0] === "") return true;
      if (after.some((w) => EXECUTION_NOUNS.has(w) || EXECUTION_NOUNS.has(w.replace(/s$/, "")))) return true;
      // "the first file I opened": a noun then a person and a verb
      if (/^(i|you|we)$/.test(after[1] ?? "") || /^(i|you|we)$/.test(after[2] ?? "")) return true;
    }
    return false;
  };

  // "the first df, before all the cleanup", "first status vs latest status": an order word over one or two words
  // that end the clause (or come before an event) orders the kind those words name, whatever the noun; a
  // position inside a content ("the first line of", "the last week") is no order of records.
  const asNouns = verbsAsNouns(lower);
  const clauseKind = (order: string) => {
    const re = new RegExp(
      `(?:\\bthe\\s+(?:very\\s+)?|^\\s*|[,;:.!?]\\s*)${order}\\s+([\\w.'/-]+)(?:\\s+([\\w.'/-]+))?\\s*(?:[,;:!?]|\\s[-\u2013\u2014]\\s|\\s+(?:before|after|from|when|vs\\.?|versus)\\b|$)`,
      "g",
    );
    for (const m of lower.matchAll(re)) {
      const ws = [m[1], m[2]].filter((w): w is string => !!w);
      if (ws.some((w) => CONTENT_POSITION.test(w) || (isStopword(w.replace(/'s$/, "")) && !asNouns.has(w)))) continue;
      return true;
    }
    return false;
  };
  // "the one before the last, how many …?", "the second-to-last result: which …", "the output before this one, with
  // …": the order phrase names no kind
  // (a generic noun) and the message's own words come in a clause of their own: the position in the whole session.
  const previousOverall = () =>
    /\b(?:the\s+)?(?:one|result|output|thing|step|action|command|call|execution)\s+before\s+(?:(?:the|that|this)\s+(?:very\s+)?(?:last|latest|most recent|final)(?:\s+(?:one|step|thing|action|command|call|execution|result|output))?|(?:this|that)\s+one)\s*[,;:]|\b(?:second[- ]to[- ]last|second[- ]last|penultimate|next[- ]to[- ]last)\s+(?:one|result|output|thing|step|action|command|call|execution)(?:\s+(?:that\s+|which\s+)?(?:i|you|we)\s+(?:ran|run|did|tried|executed|called))?\s*[,;:]/.test(
      lower,
    )
      ? { overall: true }
      : {};
  // "the run before last", "the ping before last": the one before the latest.
  if (
    /\bbefore\s+last\b(?!\s+(?:night|week|month|year|time|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b)/.test(
      lower,
    )
  )
    return { kind: "previous", why: '"before last"' };
  // "before the last one", "just before the most recent step (took)": the one before the latest, not an event.
  if (new RegExp(`\\bbefore\\s+${LATEST_REF}`).test(lower))
    return { kind: "previous", why: "the one before the latest", ...previousOverall() };
  // Before/after an event ("before the migration ran", "after my edit"), unless the event is
  // the referent itself ("before it died").
  const ev =
    /\b(before|after)\s+(?!(?:this|that|it|the last|the latest|the previous|the one)\b(?:\s+one)?\s*(?:[?.!,]|$))((?:all\s+(?:of\s+)?)?(?:(?:my|your|the|i|you|we|our|that|this)\b|(?!(?:everything|anything|nothing|something)\b)[a-z]{3,}ing\s+(?:the|my|our|your|that|this|it|a|an)\b)(?:[^?.!,;]|[.](?=\w))*)/.exec(
      lower,
    );
  // "before that slice" names an event; "before that happened", "before this one" do not.
  if (
    ev &&
    !/^(it|they)\b/.test(ev[2]!) &&
    // "before we touched anything": no event of the session but its start (below).
    !/\b(?:touched|changed|did|tried|started|ran|fixed|modified|edited)\s+(?:anything|everything)\s*$/.test(
      ev[2]!.trim(),
    ) &&
    !THAT_DID.test(ev[2]!.trim())
  ) {
    const phrase = ev[2]!.split(/\s+(?:vs\.?|versus)\s+/)[0]!.trim();
    return { kind: "event", side: ev[1] as "before" | "after", phrase, why: `"${ev[1]} ${phrase}"` };
  }

  // "the status before we touched anything": before any change of the session is its start.
  if (
    /\bbefore (?:(?:we|you|i) (?:\w+ )?)?(?:touched|changed|did|tried|started|ran|fixed) (?:anything|everything)\b/.test(
      lower,
    )
  )
    return { kind: "first", why: '"before anything"' };
  const clock = parseClock(lower);
  if (clock) return clock;
  const day = /\b(yesterday|today)'s\b|\bfrom (yesterday|today)\b/.exec(lower);
  if (day) return { kind: "day", daysBack: (day[1] ?? day[2]) === "yesterday" ? 1 : 0, why: `"${day[0]}"` };
  // "two checks back", "a couple of steps ago", "one run back": counted back from the latest of the kind; "two years
  // ago", "a few weeks back" is a time before the session, no record counted back.
  const back =
    /\b(one|two|three|four|2|3|4|a couple of|couple of|a few)\s+(?:more\s+)?(?:(?!(?:weeks?|months?|years?|decades?|quarters?|semesters?|summers?|winters?)\b)[a-z]+\s+){0,2}(?:back|ago)\b/.exec(
      lower,
    );
  if (back) {
    const n = {
      one: 1,
      two: 2,
      three: 3,
      four: 4,
      "2": 2,
      "3": 3,
      "4": 4,
      "a couple of": 2,
      "couple of": 2,
      "a couple": 2,
      couple: 2,
      "a few": 3,
    }[back[1] as "one"];
    // The latest is one back ("one step back"); "two checks ago" is the one before it.
    return n === 1 ? { kind: "latest", why: `"${back[0]}"` } : { kind: "previous", why: `"${back[0]}"`, back: n - 1 };
  }
  if (/\b(second[- ]to[- ]last|second[- ]last|penultimate|next[- ]to[- ]last)\b/.test(lower))
    return { kind: "previous", why: "second to last", ...previousOverall() };
  if (
    /\b(just |right |immediately )?before (it|this|that)( one)?\s*([?.!,]|$)/.test(lower) &&
    !/\bbefore (it|this|that) one\b/.test(lower)
  ) {
    return { kind: "previous", why: "the one before this", demonstrative: true };
  }
  if (
    /\b(the one before|one before (it|this|that)|the (one|result|file|run|query|command|page|log) before|before (it|this|that|the last|the latest)( one)?\s*([?.!,]|$)|before this one|before that one|earlier one|the earlier|previous one|the previous|prior one|the prior|the time before|the (?:older|earlier|former)(?: one)? of the (?:two|2)|the older (?:one|\w+)|not (this|that|the latest|the last|the newest)( one)?\b)/.test(
      lower,
    )
  ) {
    return { kind: "previous", why: "the one before the latest", ...previousOverall() };
  }
  if (
    /\b(earlier|previously|before)\b/.test(lower) &&
    /\b(i|you|we)\b/.test(lower) &&
    // "we never did it before", "have you ever done this before?": "before" as "ever" is no earlier record.
    !/\b(?:never|ever)\b[^,;:.!?]*\b(?:before|previously)\s*(?:[,;:.!?]|$)/.test(lower) &&
    !/\bbefore\s+(?:it|they|he|she)\s+\w/.test(lower)
  ) {
    return { kind: "previous", why: '"earlier"' };
  }
  // "the second file", or a clause that starts with the ordinal ("second thing we looked at, …").
  const nth = /(?:\bthe|^|[,;:.!?]\s*)\s*(second|third|fourth|fifth|2nd|3rd|4th|5th)\b(?![- ](to[- ])?last)/.exec(
    lower,
  );
  if (nth && (nounAfter(new RegExp(`(?:\\bthe|^|[,;:.!?]\\s*)\\s*${nth[1]}\\b`, "g")) || clauseKind(nth[1]!))) {
    const n = { second: 2, third: 3, fourth: 4, fifth: 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5 }[nth[1] as "second"];
    return { kind: "nth", n, why: `"the ${nth[1]}"`, ...overall(nth[1]!) };
  }
  if (
    /\b(first time|the very first|originally|initially|(?:at|from) the (very )?(start|beginning|outset|get[- ]go)|in the (very )?beginning|to begin with|first thing|at first|(?:the|our|my|your) original|the initial|before (?:(?:we|you|i) (?:\w+ )?)?(?:touched|changed|did|tried|started|ran) (?:anything|everything)|before anything (?:else )?(?:was|got|changed|ran)|oldest|earliest)\b/.test(
      lower,
    ) ||
    nounAfter(/\bfirst\b/g) ||
    clauseKind("first")
  ) {
    // "at the very start, what was …?": the phrase is a clause of its own and names no kind: the session's start.
    const sessionStart =
      /(?:^|[,;:.!?]\s*|\b(?:and|so|but|ok|okay)\s+)(?:at|from|in)\s+the\s+(?:very\s+)?(?:start|beginning|outset)\s*[,;:]/.test(
        lower,
      );
    return { kind: "first", why: '"first"', ...(sessionStart ? { overall: true } : overall("first")) };
  }
  // "how many are in there?", "anything odd in there": "there" at the end points at what was just shown.
  if (/\b(?:in|from|out of)\s+there\s*[?.!]*\s*$/.test(lower)) return { kind: "latest", why: '"in there"' };
  // A failure pointed at without a name ("that failure", "that 500", "why did it fail?", "it went red"):
  // the latest of the failures.
  if (POINTED_FAILURE.test(lower)) return { kind: "latest", why: "the failure pointed at" };
  if (
    JUST_DONE.test(lower) ||
    /\b(a|one)\s+(moment|minute|second|sec|min)\s+ago\b|\bmoments? ago\b|\bright now\b|\bthis time\b|\bmost recent(ly)?\b|\bnewest\b|\bthe (?:newer|latter)\b|\bthe later (?:one|of)\b|\bjust now\b|\bas (?:it|they) (?:stands?|is|are) now\b|\bas (?:it|they) stands?\b|\bcurrently\b|\bthe current (?:state|version|one|contents?)\b/.test(
      lower,
    ) ||
    nounAfter(/\b(last|latest)\b/g) ||
    clauseKind("(?:last|latest|newest|current)") ||
    /\b(that|this)\s+((?:[\w-]+\s+){0,2}?)(one|result|output|error|listing|query|search|run|command|call|request|page|file|log|response|thing)\b/.test(
      lower,
    ) ||
    // "… now?" asks for the latest; "that's all for now" (for the time being) orders nothing.
    /(?<!\bfor )\bnow\s*[?.!]*\s*$/.test(lower) ||
    /\bwhat (just )?happened( there| here| just now)?\s*[?.!]*\s*$|\bwhat was that\s*[?.!]*\s*$/.test(lower)
  ) {
    return { kind: "latest", why: "the most recent" };
  }
  return undefined;
}

/**
 * "explain the first normal form", "define the second law of motion": a request to explain whose ordinals each qualify
 * words that name no record (no execution noun, no "one"/"thing"/"step"): the ordinal is part of a term of the world.
 */
export function ordinalOfTerm(lower: string): boolean {
  if (!/^\s*(?:please\s+)?(?:explain|define|describe)\b/.test(lower)) return false;
  const ordinals = [
    ...lower.matchAll(/\b(?:first|second|third|fourth|fifth|last|latest|previous)\s+([\w-]+)(?:\s+([\w-]+))?/g),
  ];
  return (
    ordinals.length > 0 &&
    ordinals.every((m) =>
      [m[1], m[2]].every(
        (w) =>
          !w ||
          !(EXECUTION_NOUNS.has(w) || EXECUTION_NOUNS.has(w.replace(/s$/, "")) || /^(?:thing|step|action)s?$/.test(w)),
      ),
    )
  );
}
