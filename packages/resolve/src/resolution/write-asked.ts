/**
 * A message that asks what went into something ("what did you put in the notes?", "what did u add to config.yml",
 * "show me what you wrote into the draft"): among records of one file, its write answers it, not its read.
 */
const WRITE_ASKED =
  /\b(?:put|puts|putting|wrote|write|writes|written|writing|add|adds|added|adding|append|appended|save|saved|insert|inserted|edit|edited|change|changed)\s+(?:[\w'-]+\s+){0,2}?(?:in|into|to|inside)\b/;

export function writeAsked(text: string): boolean {
  return WRITE_ASKED.test(text.toLowerCase().replace(/[’‘]/g, "'"));
}
