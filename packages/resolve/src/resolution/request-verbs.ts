// Verbs that open a request to look at something ("check the inventory", "show me that log"): no content of it.

/**
 * A request that starts with a verb of looking, before what is to be looked at (a determiner, a possessive or a
 * name): "check the hosts file", "can you pull up my notes", "show me config.yml", "pls reopen that page". The verb
 * says what to do with a record, not a word the record holds ("--check" in a command). Elsewhere ("the check
 * failed", "what did the health check say") it stays a word of the message.
 */
const LOOK_REQUEST =
  /^\s*(?:(?:ok(?:ay)?|so|and|now|then|pls|plz|please|hey|quick(?:ly)?|(?:can|could|would|will) (?:you|u)(?: please| pls)?)[,\s]+)*(check|recheck|show|view|see|open|reopen|display|pull up|bring up|look at)\s+(?:me\s+|us\s+)?(?=(?:the|that|this|those|these|my|our|your)\b|[\w-]+\.[a-z0-9]+\b|[\w.-]*\/)/;

/** The words of the looking verb that opens the message ("check", "pull", "up"), none when there is none. */
export function lookRequestWords(lower: string): string[] {
  const m = LOOK_REQUEST.exec(lower);
  return m ? m[1]!.split(" ") : [];
}
