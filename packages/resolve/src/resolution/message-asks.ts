// What kind of thing a message asks for, read from its shape: what went into a file, something new to be written, or
// a yes/no answer about a thing pointed at. Read once per message (query.ts); the decision step uses the flags.

/**
 * A message that asks what went into something ("what did you put in the notes?", "what did u add to config.yml",
 * "show me what you wrote into the draft"): among records of one file, its write answers it, not its read.
 */
const WRITE_ASKED =
  /\b(?:put|puts|putting|wrote|write|writes|written|writing|add|adds|added|adding|append|appended|save|saved|insert|inserted|edit|edited|change|changed)\s+(?:[\w'-]+\s+){0,2}?(?:in|into|to|inside)\b/;

/** A request to write something new: "write a …", "draft me an …", "could you compose some …". */
const WRITE_NEW =
  /^\s*(?:please\s+)?(?:(?:can|could|would|will) you\s+(?:please\s+)?)?(?:write|compose|draft|generate|prepare)\s+(?:me\s+|us\s+)?(?:a|an|some)\b/;

/** A yes/no question about a thing pointed at: "are the copies identical?", "so is that version better?", "did it …?". */
const YES_NO_POINTED =
  /^\s*(?:(?:so|and|but|ok|okay|hm+|right)\b[\s,]*)?(?:is|are|was|were|did|does|do|has|have)\s+(?:the|that|this|these|those|it|they)\b[^?]*\?\s*$/;

/** What the lower-cased message asks for (see each pattern above). */
export function readAsks(lower: string): { asksWhatWentIn: boolean; writesNew: boolean; yesNoPointed: boolean } {
  return {
    asksWhatWentIn: WRITE_ASKED.test(lower.replace(/[’‘]/g, "'")),
    writesNew: WRITE_NEW.test(lower),
    yesNoPointed: YES_NO_POINTED.test(lower),
  };
}
