/**
 * Regular past-tense verbs ("-ed") told apart from words that only end so ("need", "speed", "red", "hundred"), and
 * "just" as "recently" ("we just ran it") told apart from "just" as "only" ("i just need a name").
 */

/** Words in "-ed" that are no past tense of a verb. */
const NOT_PAST_ED =
  "(?:need|speed|seed|feed|weed|breed|bleed|greed|deed|heed|indeed|proceed|succeed|exceed|red|bed|shed|shred|sled|hundred|sacred|naked|wicked|kindred|embed|tweed|creed|steed)";

/** A regular past-tense verb of at least `min` letters before "-ed", as a pattern source (no word boundaries). */
export function regularPast(min = 1, letters = "[a-z]"): string {
  return `(?!${NOT_PAST_ED}\\b)${letters}{${min},}ed`;
}

/** "just" as "only" after a person ("i just need", "we just want"): no recent action. */
export const JUST_ONLY =
  "(?!\\s*(?:need|needs|want|wants|wanna|like|wish|think|hope|wonder|mean|care|prefer|love|hate|know|feel)\\b)";
