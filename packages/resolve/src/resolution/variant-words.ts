// Whether a record's word that the message's word may be a typo or an abbreviation of (tokens.ts: isVariant) is
// worth matching: the shapes alone take an English word for a slip of another ("admit" for "admin", "red" for
// "redis"). A typo makes a word that is no word; a common word abbreviates only a word near it in meaning
// ("max" for "maximum", never "red" for "redis"); a rare or unknown short word ("cfg", "k8s", "repo") keeps
// every abbreviation its shape allows; a common word still stands for its own longer forms ("loud" → "loudness")
// and compounds ("key" → "keytag").
import { knownWord, similarity, wordRank } from "./near-words.js";
import { isTypo } from "./tokens.js";

/** Rank (by frequency in the word table) under which a short word is a common word, not a shorthand. */
const COMMON_RANK = 10_000;
/** Endings that make another form of a word. */
const ENDINGS = new Set([
  "s",
  "es",
  "ed",
  "er",
  "ers",
  "ing",
  "ness",
  "ly",
  "ity",
  "ment",
  "ments",
  "al",
  "ful",
  "less",
  "able",
]);
/** Cosine from which a common short word abbreviates a longer one. */
const ABBREVIATION_COSINE = 0.35;

/** True when the message's `word` may stand for the record's `tok` (a variant by shape: see isVariant). */
export function plausibleVariant(word: string, tok: string): boolean {
  if (word.length >= 5) {
    if (tok.length >= word.length + 4 && tok.startsWith(word)) return true; // the head of a name
    return !(isTypo(word, tok) && knownWord(word));
  }
  const rank = wordRank(word);
  if (rank === undefined || rank >= COMMON_RANK) return true;
  // The word with an ending ("loud" → "loudness") or joined to another ("key" → "keytag", "keymgr"); not a
  // word that merely starts with it ("red" → "redis").
  if (tok.startsWith(word)) {
    const rest = tok.slice(word.length);
    if (ENDINGS.has(rest) || rest.length >= 3) return true;
  }
  return (similarity(word, tok) ?? 0) >= ABBREVIATION_COSINE;
}
