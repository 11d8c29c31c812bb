// The last resort of the decision step: a question about the state or outcome of what was just done, named by a pronoun
// only ("is it ok now?", "did it go through?", "has it synced yet?", "what's it complaining about?"), that no record's
// words answer is about the latest execution, as a person reading the session would take it.
import type { IndexedExecution } from "./executions.js";
import type { ParsedQuery } from "./query-types.js";
import { type Scored, unscored } from "./score.js";
import { ASKS_WHEN } from "./world-question.js";

/** Words that say a state reached: "ok", "happy", "green", "fixed" … */
const STATE = "ok|okay|fine|good|happy|green|done|up|fixed|working|better|back|alright|sorted|clean";
/** A pronoun with no antecedent in the message: the thing just done ("it", "that", "this"). */
const THING = "(?:it|that|this)";

/**
 * A question about the state or outcome of the thing just done, named by a pronoun only (a thing the message names
 * with a noun may be the world's: "did the bill pass the senate?"):
 * - whether it went through, worked, finished or came up: "did it go through?", "has that finished?";
 * - its state now or yet: "is it ok now?", "that green yet?", "has it synced yet?";
 * - what it complains about or says ("what's it complaining about", "whats it saying");
 * - who broke it.
 */
const STATE_OF_LATEST: RegExp[] = [
  new RegExp(
    `^\\s*(?:(?:so|and|ok|okay|right|hm+|well)\\b[\\s,]*)?(?:did|does|has|have|is|was)\\s+${THING}\\s+(?:(?:finally|actually|even|really)\\s+)?(?:go\\s+(?:through|thru)|gone\\s+(?:through|thru)|work|worked|pass|passed|succeed|succeeded|finish|finished|complete|completed|land|landed|come\\s+(?:up|back|through|thru))\\b`,
  ),
  new RegExp(
    `^\\s*(?:(?:so|and|ok|okay|right|hm+|well)\\b[\\s,]*)?(?:(?:is|are)\\s+)?(?:${THING}|everything|all)\\s+(?:${STATE})\\s+(?:now|yet)\\s*\\?`,
  ),
  new RegExp(
    `^\\s*(?:(?:so|and|ok|okay|right)\\b[\\s,]*)?(?:has|have)\\s+${THING}\\s+(?:[a-z]+(?:ed|en|wn|ne)|come|run|got|begun)\\b[^?]*\\byet\\s*\\?*\\s*$`,
  ),
  /\bwhat(?:'s|s| is| was)\s+it\s+(?:complaining|choking|whining|moaning|unhappy|upset)\b/,
  /\bwho\s+broke\s+it\s*(?:[?,.!]|$|and\b|again\b)/,
  // A failure of "it", in a question: "when did it first start blowing up", "it dies for me …, any idea why?".
  /\bit\s+(?:(?:first|just|still|always|keeps?|kept|start(?:s|ed)?|begins?|began)\s+)*(?:blow(?:s|ing)?\s+up|blew\s+up|fail(?:s|ed|ing)?|crash(?:es|ed|ing)?|dies|died|dying|error(?:s|ed|ing)?|hangs|hung|hanging|freez(?:es|ing)|froze)\b/,
];

/** "it" of the weather, the time or the day ("has it stopped raining yet?", "is it friday yet?"): no thing of the session. */
const WEATHER_IT =
  /\bit\b[^?]*\b(?:rain(?:s|ed|ing)?|snow(?:s|ed|ing)?|sunny|cloudy|windy|hot|cold|warm|dark|light|late|early|night|morning|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|christmas|summer|winter|spring)\b/;

/** A clause that gives "it" its own antecedent ("did it work when you tried the recipe?"): the thing is told, not just done. */
const CLAUSE = /\b(?:when|whenever|if|after|before|while|once|because)\b/;

/** A question: a question mark, or a question word or auxiliary opening a clause ("when did it …", "…, whats it …", "any idea why"). */
const QUESTION =
  /\?|(?:^|[,;:]\s*)(?:(?:so|and|ok|okay|right|hm+|well|ugh)\b[\s,]*)?(?:who|what|whats|when|why|how|where|did|does|do|is|are|has|have|was)\b|\bany idea\b/;

/** A thing named before "it" ("my build keeps failing, why does it …"): the message gives "it" its antecedent. */
const NAMED_BEFORE_IT =
  /\b(?:the|a|an|my|our|your|this|that|these|those)\s+[a-z][\w.-]*(?:\s+[\w.-]+)?\b[\s\S]*?\bit\b/;

/** The message asks about the state or outcome of what was just done (see STATE_OF_LATEST). */
export function asksStateOfLatest(lower: string): boolean {
  // "when did it …" opens a question about a time; any other "when" gives "it" a clause of its own.
  const clauses = lower.replace(ASKS_WHEN, " ");
  return (
    STATE_OF_LATEST.some((re) => re.test(lower)) &&
    QUESTION.test(lower) &&
    !WEATHER_IT.test(lower) &&
    !CLAUSE.test(clauses) &&
    !NAMED_BEFORE_IT.test(lower)
  );
}

/**
 * The latest execution, for a message that asks about the state of what was just done when the rules found no
 * record: only when nothing of the message is about the world, advice, a plan, something more done ("did you also
 * …"), a statement or a name, and no record but the latest holds any of its words (a lexical match elsewhere means
 * the message is about that record, which the rules then set aside on purpose).
 */
export function latestAsked(
  query: ParsedQuery,
  list: IndexedExecution[],
  score: (query: ParsedQuery) => Scored[],
): Scored | undefined {
  if (
    query.general ||
    query.world ||
    query.advice ||
    query.alsoAsked ||
    query.writesNew ||
    query.statement ||
    query.names.length > 0 ||
    query.followUp
  )
    return undefined;
  if (!asksStateOfLatest(query.text.toLowerCase().replace(/[’‘]/g, "'"))) return undefined;
  const latest = list.at(-1);
  if (!latest) return undefined;
  const scored = score(query);
  if (scored.some((s) => s.total > 0 && s.ownWeight > 0 && s.x !== latest)) return undefined;
  return scored.find((s) => s.x === latest) ?? unscored(query, latest);
}
