// Request verbs a message uses as nouns, naming a command that ran.

/**
 * A request verb used as a noun after a determiner ("the first describe", "the new explain", "that get"): it names a
 * command that ran (`--describe`, `.explain()`), not a request to the assistant, so it is a content word.
 */
const VERB_AS_NOUN =
  /\b(?:the|that|this|those|these|my|your|our)\s+(?:(?:first|second|third|last|latest|previous|earlier|old|older|new|newer|original|initial|final|other)\s+)?(describe|explain|show|get|find|pull|print|display)s?\b(?!\s+(?:me|us|it|them|him|her|what|how|why|which|who)\b)/g;

/** Request verbs that the message uses as nouns. */
export function verbsAsNouns(lower: string): Set<string> {
  return new Set([...lower.matchAll(VERB_AS_NOUN)].map((m) => m[1]!));
}
