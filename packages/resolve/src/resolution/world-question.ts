/** Messages about the world, not the session: how products behave, norms, comparisons, advice, plans, what would happen. */
import type { ParsedQuery } from "./query-types.js";
import { PAST_TENSE, pointerAtSession } from "./session-pointers.js";

/**
 * What is normal, usual, recommended or best in general: "how many retries is normal for …", "what's a sane default
 * for …", "which host has the cheapest plan". Read as a question about the world only when nothing points at the session.
 */
export const NORM_QUESTION =
  /\bhow\s+(?:big|large|small|long|many|much|often|fast|high|low)\s+(?:[\w-]+\s+){0,2}?should\s+(?:an?|any)\s|\bwhat(?:'s| is| are)\s+the\s+(?:max|maximum|min|minimum|largest|biggest|smallest|longest|shortest|most|least)\s+(?:[\w-]+\s+){0,3}(?:of|for|in|on)\s+(?:an?|any)\s|\bwhat(?:'s| is| are)\s+the\s+default\s+(?:[\w-]+\s+){0,3}(?:for|of|in|on)\s+(?!(?:the|this|that|these|those|our|my|your|its|their)\b)[a-z]|\b(?:is|are|'s|be|considered)\s+(?:\w+\s+)?(?:normal|typical|usual|standard|customary|recommended|reasonable|sensible|sane|acceptable)\b|\b(?:a|the)\s+(?:good|sane|sensible|reasonable|recommended|typical|usual|normal|standard|best|ideal|common)\s+(?:default|value|number|amount|size|limit|timeout|setting|choice|way|practice|approach|range)\b|\bwhat(?:'s| is| are)\s+(?:the\s+)?(?:best|cheapest|fastest|safest|easiest|most popular)\b|\bwhich\s+[\w-]+(?:\s+[\w-]+)?\s+(?:is|are|has|have|gives?|offers?)\s+the\s+(?:best|cheapest|fastest|most|least|biggest|lowest|highest)\b/;

/** A question about what to do or what would happen, not about what a result said. */
export const ADVICE =
  /^\s*(?:will|would|does|do|can|could|what happens|what would happen)\b[^?]*\bif (?:we|i|you)\s+(?!(?:did|had|were|was)\b)\w+|\b(?:should|shall) (?:we|i)\b(?! have\b)|\bdo (?:we|i) (?:have|need) to\b|\b(?:do|would) you (?:think|recommend|suggest|advise|prefer)\b|\bwould it (?:be|make sense)\b|\bis it (?:worth|better|safe|ok|okay|normal|common|usual) (?:to|for)\b|\bis it an? (?:bad|good|smart|dumb|terrible|great) idea\b|\b(?:can|could) you recommend\b|\bany (?:good )?alternatives to\b|\b(?:any|some) (?:good |quick |general )?(?:tips|advice|pointers|suggestions) (?:for|on|about)\b|\bwhat would you (?:name|call|use|pick|choose|recommend|prefer)\b|\bif (?:we|i) (?:ship|switch|move|use|add|go|upgrade|migrate|change|drop|keep)\b/;

/**
 * A present or modal question whose subject is a bare name or an indefinite ("does shopify charge …", "how does git
 * bisect pick …", "how many products can a plan hold"), not one pointed at ("does the log say …", "did it …").
 */
export const WORLD_DOES =
  /^\s*(?:(?:so|and|but|ok|okay|also|btw|quick question)\b[\s,:]*)?(?:(?:how|what|why|when|where|which|who)(?:\s+(?:long|much|many|often|well|\w+s))?\s+(?:[\w/-]+\s+){0,3})?(?:does|do|can|will)\s+(?!(?:it|that|this|these|those|they|them|you|we|i|he|she|the|your|my|our|its|their|there|any|anything|something)\b)(?!(?:[\w.-]+\s+){0,3}(?:have|has|run|runs|use|uses|contain|contains|include|includes|say|says|show|shows|list|lists|return|returns|point|points|set|mean|means|look)\b)[a-z.]/;
/** A comparison of two things in general: "is psycopg 3 faster than psycopg2 …", "are tabs better than spaces". */
export const COMPARISON =
  /^\s*(?:is|are)\s+(?!(?:it|that|this|these|those|they|the|your|my|our|there)\b)[\w.-]+(?:\s+[\w.-]+){0,3}\s+(?:\w+er|more|less|better|worse)\s+than\b/;
/**
 * A question about a kind of thing in general: a thing brought in with "a"/"an"/"any" that can, should or must do
 * something ("how long can a url get", "should an index cover …", "can a cron job run twice?"), a bare plural in a passive ("how often
 * should backups be pruned?"), a limit asked ("how many retries is too many?"), or an amount in one of a kind ("how
 * many bytes are in a kilobyte", "how much sugar is in a can of cola").
 */
const KIND_IN_GENERAL =
  /^\s*(?:how|what|which|when|why|where|is|are|can|could|should|would|will|does|do)\b[^,;:.!?]*?\b(?:an?|any)\s+(?:[\w.-]+\s+){0,2}?[\w.-]+\s+(?:can|could|should|may|might|must|will|would)\s+(?:be|get|have|hold|take|handle|contain|store|reach|go|last|run)\b|^\s*(?:can|could|should|must|will|would|does|do)\s+(?:an?|any)\s+[a-z]|^\s*(?:how|why|when|where|what)\s+(?:often\s+|much\s+|long\s+)?(?:can|could|should|must|do|does)\s+(?!(?:the|my|our|your|these|those|this|that|its|their|it|they|we|you|i|there)\b)(?:[a-z]+\s+)?[a-z]+s\s+(?:be|get)\s+[a-z]+(?:ed|en|wn|de)\b|\bhow\s+(?:many|much|long|big|large|often)\b[^?]*\b(?:is|are)\s+too\s+(?:many|much|long|big|large|often|few|little)\b|\bhow\s+(?:many|much)\s+(?:[\w-]+\s+){1,3}?(?:(?:are|is)\s+)?(?:there\s+)?in\s+(?:an?|one)\s+[\w-]+/;

/** How two things of the world relate: "is kotlin a superset of java?", "is valkey a fork of redis?". */
const RELATION_OF =
  /^\s*(?:is|are|was|were)\s+(?!(?:it|that|this|these|those|they|the|your|my|our|there)\b)[\w.+#-]+(?:\s+[\w.+#-]+)?\s+(?:an?|the)\s+(?:[\w-]+\s+)?(?:superset|subset|fork|dialect|successor|predecessor|replacement|alternative|variant|kind|type|flavou?r|descendant|clone|port|rewrite|wrapper)\s+(?:of|to|for)\s+(?!(?:the|that|this|these|those|our|my|your|it)\b)[\w.+#-]/;

/** What would happen, or how one would go about something: "what happens if a disk dies", "if X fills up, does it …". */
export const HYPOTHETICAL =
  /\bwhat (?:happens|would happen|will happen)\b|\b(?:why|how|when)\s+(?:would|could|might)\s+(?:an?|any|some)\s|^\s*if\b[^?,]*,\s*(?:does|do|will|would|can|could|is|are|should)\b|\bhow (?:would|should|do) (?:you|we|i) (?:set up|setup|configure|structure|organi[sz]e|approach|monitor|avoid|prevent)\b|\bwhat would you do\b/;
/** The usual way, best (or bad, good, common) practice, a difference between two things in general ("explain the difference between A and B"), what something is called ("what do you call a backup that …"). */
export const GENERIC =
  /\bwhat (?:do|does) (?:you|we|people|one) call (?:an?|the|it when)\b|\b(?:the usual way|(?:best|bad|good|common|standard) practices?|in practice)\b|\bwhy does every\b|\b(?:explain|tell) (?:to )?(?:me |us )?the difference between\b|\bwhat(?:'s| is) the difference between\b/;
/** A plan or the future: "next week we want to …", "starting monday", "long term", "at some point", "we're planning to …". */
export const FUTURE =
  /\b(?:next|coming)\s+(?:week|month|year|quarter|sprint|release|spring|summer|fall|autumn|winter)\b|\btomorrow\b|\bstarting\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|next|tomorrow)\b|\b(?:long term|in the future|going forward|from now on|eventually|someday|some day|one day|at some point|sometime|down the road|in the long run)\b|\b(?:we|i)(?:'re| are| am|'m)?\s+(?:going to|gonna|planning to|plan to|intend to|hope to)\b/;
/** Whether something more was done: "did you also …", "have you … too?", "did you … as well". */
export const ALSO_ASKED =
  /^\s*(?:(?:and|so|oh|ok|okay|btw)\b[\s,]*)?(?:did|have|had)\s+(?:you|we)\b(?:\s+also\b|[^?]*\b(?:too|as well|either)\s*[?.!]?\s*$)/;

/** Words that make a question general: an indefinite thing, a condition, "usually", "by default", whether a product supports or requires something (not "even"/"actually"/"still": "did it even run?" is about the session). */
export const GENERAL_MARK =
  /\b(?:does|do|can|will)\s+an?\b|\b(?:when|whenever|if)\b|\b(?:usually|generally|normally|typically|in general|forever|automatically|by default)\b|\bhow often\b|\b(?:support|supports|require|requires)\b/;

/** "when do …", "when is …" opening a question asks for a time, no condition: it makes no question general. */
export const ASKS_WHEN =
  /^\s*(?:(?:so|and|but|ok|okay|hey)\b[\s,]*)?when\s+(?=(?:do|does|did|is|are|was|were|will|can)\b)/;

/**
 * The message opens by saying the answer is not to be looked up in the session: "without running a query, …", "no need
 * to check: …". Only as its opening clause ("what did the request return without checking the cache?" is about it).
 */
const NOT_LOOKED_UP =
  /^\s*(?:(?:so|and|but|ok|okay)\b[\s,]*)?(?:without\s+(?:running|looking|checking|opening|querying|fetching|searching|reading|touching)\b[^,;:—–?]*|no need to (?:look|check|run|open|query|search)\b[^,;:—–?]*)\s*[,;:—–-]/;

/** A choice between two things for something new: "for a new service, grpc or rest?" (not "for a sec, was it A or B?"). */
const CHOICE_FOR_NEW =
  /^\s*(?:(?:so|and|ok|okay|also|btw)\b[\s,]*)?for\s+an?\s+(?:(?:brand\s+)?new|fresh|greenfield|future|next)\b[^,?]*,\s*[^?]*\bor\b[^?]*\?\s*$/;

/** "are flakes still experimental?": the present state of a bare name (no "the", "it", "that" …). */
const BARE_STILL =
  /^\s*(?:(?:so|and|but|ok|okay|also|btw)\b[\s,]*)?(?:is|are)\s+(?!(?:it|that|this|these|those|they|the|your|my|our|there|we|you|i|its|their)\b)[\w.-]+(?:\s+[\w.-]+)?\s+(?:still|anymore)\b/;

/** The present state of something ("still", "anymore", "nowadays", "these days"): of a product, or of the session's thing. */
export const STATE_MARK = /\b(?:still|anymore|any more|nowadays|these days)\b/;

/** How the message reads as a question about the world rather than about the session. */
export function readWorld(lower: string): Pick<ParsedQuery, "advice" | "world" | "alsoAsked" | "stateAsked"> {
  return {
    advice: ADVICE.test(lower),
    world:
      ((WORLD_DOES.test(lower) || COMPARISON.test(lower)) && GENERAL_MARK.test(lower.replace(ASKS_WHEN, " "))) ||
      (COMPARISON.test(lower) && !pointerAtSession(lower)) ||
      (NORM_QUESTION.test(lower) && !pointerAtSession(lower)) ||
      (KIND_IN_GENERAL.test(lower) && !pointerAtSession(lower)) ||
      (RELATION_OF.test(lower) && !pointerAtSession(lower)) ||
      HYPOTHETICAL.test(lower) ||
      GENERIC.test(lower) ||
      FUTURE.test(lower) ||
      (NOT_LOOKED_UP.test(lower) && !PAST_TENSE.test(lower) && !pointerAtSession(lower)) ||
      (CHOICE_FOR_NEW.test(lower) && !pointerAtSession(lower)),
    alsoAsked: ALSO_ASKED.test(lower),
    stateAsked:
      ((WORLD_DOES.test(lower) || COMPARISON.test(lower)) && STATE_MARK.test(lower)) || BARE_STILL.test(lower),
  };
}

/** A question ("how …", "what …", "is …", "can …") or a request for something new ("give me a …", "write me a …"). */
export const ASKED_IN_GENERAL =
  /^\s*(?:(?:so|and|but|ok|okay|also|btw|quick question)\b[\s,:]*)?(?:(?:how|what|what's|whats|which|why|when|where|who|is|are|can|could|should|would|will|does|do)\b|(?:please\s+)?(?:give|get|write|suggest|recommend|show|tell|find)\s+(?:me|us)\s+(?:an?|some)\b)/;
