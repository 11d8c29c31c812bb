/** Verbs of putting something into a file ("what did you put in the notes", "the lines we added to the config"): a write. */

/**
 * "what did you put in X", "what did we add to X", "the bit i stuck into X": someone of the session placed text in a
 * thing, which only a write (or edit) did; a read of the same file holds what was there before. The verb needs its
 * place ("in", "into", "to") so "did I put the same paper twice" or "add a column" name no write of the session.
 */
const PUT_INTO =
  /\b(?:(?:i|you|we)\s+(?:just\s+|already\s+|then\s+)?|did\s+(?:i|you|we)\s+(?:just\s+|already\s+)?)(?:put|add|added|stick|stuck|paste|pasted|append|appended|insert|inserted|jot|jotted|type|typed|drop|dropped)\s+(?:(?:in|into|to|onto)\b|(?:it|that|this|them|those)\s+(?:in|into|to|onto)\b)/;

/** The write hint of a message that puts something into a thing, with the verb it consumes; undefined otherwise. */
export function putIntoHint(lower: string): { verb: string } | undefined {
  const m = PUT_INTO.exec(lower);
  if (!m) return undefined;
  const verb =
    /\b(put|add|added|stick|stuck|paste|pasted|append|appended|insert|inserted|jot|jotted|type|typed|drop|dropped)\b/.exec(
      m[0],
    );
  return verb ? { verb: verb[1]! } : undefined;
}
