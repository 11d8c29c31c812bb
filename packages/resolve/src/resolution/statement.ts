/** Statements: the message tells something ("we got a puppy", "X is driving me nuts") rather than asking for a record. */
import { regularPast } from "./past-forms.js";

/** A feeling told about something: "X is driving me nuts", "the death of me", "i'm sick of Y", "ugh". */
export const FEELING =
  /\b(?:drives?|driving|drove)\s+(?:me|us)\s+(?:crazy|nuts|mad|insane|up the wall)\b|\b(?:killing|kills)\s+(?:me|us)\b|\bthe death of (?:me|us)\b|\b(?:sick|tired) of\b|\bfed up with\b|\bcan'?t stand\b|^\s*ugh\b/;

/** "we got a puppy", "my cat knocked over …", "he just wants …": a subject and a verb. */
const TOLD = new RegExp(
  `^\\s*(?:(?:so|and|well|btw|oh|ok|okay|also|anyway)\\b[\\s,]*)?(?:(?:i|we|i'm|we're|i've|we've)\\s+\\w|(?:my|our)\\s+(?:[\\w'-]+\\s+){1,3}(?:is|are|was|were|has|have|had|got|gets|${regularPast(2)}|sat|ran|went|took|made|ate|broke|fell|left|came|saw|won|lost|bought|found|gave|knew|told|wrote|said|did|[a-z]{2,}[^siu']s(?=\\s+\\w))\\b|(?:he|she)\\s+(?:\\w+n't\\s+|just\\s+|really\\s+)?[a-z]{2,})`,
);

/** A statement in the first person or about someone else, or a feeling told, with no question and no request. */
export function isStatement(lower: string): boolean {
  return (
    !/\?/.test(lower) &&
    // "we got a puppy", "my cat knocked over …": a subject and a verb ("our original status check" is a noun phrase);
    // or a feeling told ("X is driving me nuts", "i'm sick of Y").
    (FEELING.test(lower) || TOLD.test(lower)) &&
    !/\b(?:can|could|would|will) you\b|\b(?:please|pls|plz)\b|\b(?:show|give|tell|find|check|open|compare|summari[sz]e|explain|list)\s+(?:me|us)\b|\b(?:i|we) (?:want|need|wonder|wondered|'d like|would like)\b/.test(
      lower,
    )
  );
}
