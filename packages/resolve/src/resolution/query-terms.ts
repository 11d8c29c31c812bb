/** Content words of a message: each word with its stem, weight, concept words and near words; multi-word concepts; compounds. */
import { CONCEPTS, numberWord } from "./lexicon.js";
import { nearWords } from "./near-words.js";
import type { ParsedQuery, QueryTerm } from "./query-types.js";
import { irregularForms } from "./irregular-verbs.js";
import { lookRequestWords } from "./request-verbs.js";
import { verbsAsNouns } from "./verb-nouns.js";
import { GENERIC_NOUNS, camelParts, isStopword, stem } from "./tokens.js";

/** "key points", "the key takeaways": a request for the gist. */
const KEY_GIST =
  /\bkey\s+(?:points?|takeaways?|findings?|facts?|ideas?|details?|things?|bits?|highlights?|lessons?|insights?|parts?)\b/;

/** Units of time and parts of the day: in records they tell an age or a period ("2 days ago"). */
const TIME_UNIT =
  /^(?:seconds?|minutes?|hours?|days?|nights?|weeks?|weekends?|months?|years?|mornings?|evenings?|afternoons?|today|tomorrow|yesterday)$/;

/** The content words of the message body (order and clock phrases left out; `consumed` words are no content). */
export function readTerms(body: string, lower: string, consumed: Set<string>): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  const termText = body.replace(
    /\b(a|one|a few|few)\s+(moment|minute|second|sec|min)s?\s+ago\b|\bjust now\b|\bright now\b|\bthis time\b|\bfirst time\b|\bside[- ]by[- ]side\b|\b(?:at|from) the (very )?(start|beginning|outset|get[- ]go)\b|\bfirst thing\b|\bin the (very )?beginning\b|\bto begin with\b|\b(an?|one|\d+|a few|few|several|a couple of|couple of|a couple|couple|two|three|four|five|ten|twenty|thirty)\s+(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)\s+(?:or so\s+)?(?:ago|back|earlier)\b|\b(right|just|immediately|directly)\s+(?=before\b|after\b)/gi,
    " ",
  );
  const looking = lookRequestWords(lower);
  const nouns = verbsAsNouns(lower);
  const rawWords = termText.match(/[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*/gu) ?? [];
  for (const raw of rawWords) {
    const pieces =
      raw.includes(".") && !/^\d/.test(raw) ? [raw, ...raw.split(/[.-]/)] : raw.includes("-") ? raw.split("-") : [raw];
    for (const piece of pieces) {
      const word = piece.toLowerCase();
      if (!word || seen.has(word)) continue;
      seen.add(word);
      if (consumed.has(word) || (isStopword(word) && !nouns.has(word)) || word.length < 2) continue;
      // "the key points", "key takeaways": "key" asks for the gist, it names no key.
      if (word === "key" && KEY_GIST.test(lower)) continue;
      // "open" at the start of a request means "show"; elsewhere ("tickets that are open") it is a word.
      if (word === "open" && /^\s*(please\s+|can you\s+|could you\s+|now\s+|and\s+)?(re)?open\b/.test(lower)) continue;
      // "check the hosts file", "pull up my notes": the verb that opens a request to look names no word of a record.
      if (looking.includes(word)) continue;
      if (numberWord(word) !== undefined) continue;
      // "kept failing", "keeps crashing": "keep" before a verb in -ing says it happened again and again, it names nothing.
      if (
        /^(?:keep|keeps|kept|keeping)$/.test(word) &&
        new RegExp(`\\b${word}\\s+(?:on\\s+)?[a-z]{2,}ing\\b`).test(lower)
      )
        continue;
      const nameLike =
        /[._\d]/.test(piece) ||
        camelParts(piece).length > 1 ||
        (piece.length >= 2 && piece === piece.toUpperCase() && /[A-Z]/.test(piece));
      // "ringing" ~ "rang", "dying" ~ "died": forms of an irregular verb the stemmer does not join.
      const related = [...new Set([...relatedWords(word, lower), ...(nameLike ? [] : irregularForms(word))])];
      // Words near it in the word vectors (names are spelled as they are): weaker than the lexicon's concept words.
      // A unit of time near it ("start" ~ "day") matches a record's age ("2 days ago"), not what it is about.
      const near = nameLike ? [] : nearWords(word).filter((w) => !related.includes(w) && !TIME_UNIT.test(w));
      terms.push({
        word,
        stem: stem(word),
        // Generic nouns ("file", "page") and bare numbers ("23") say little on their own.
        weight: GENERIC_NOUNS.has(word) || /^\d+(\.\d+)*$/.test(word) ? 0.3 : 1,
        related,
        relatedStems: related.map(stem),
        near,
        nearStems: near.map(stem),
        nameLike,
      });
    }
  }

  // Multi-word concepts ("how many", "only one") stand for words that may be written otherwise.
  for (const group of CONCEPTS) {
    for (const phrase of group) {
      if (!phrase.includes(" ") || !new RegExp(`\\b${phrase}\\b`).test(lower) || seen.has(phrase)) continue;
      seen.add(phrase);
      const related = group
        .filter((g) => g !== phrase)
        .flatMap((g) => (g.includes(" ") ? [g.replace(/ /g, "-"), g.replace(/ /g, "")] : [g]));
      terms.push({
        word: phrase,
        stem: phrase,
        weight: 0.5,
        related,
        relatedStems: related.map(stem),
        near: [],
        nearStems: [],
        nameLike: false,
      });
    }
  }
  return terms;
}

/** Adjacent content words written apart that a record holds as one word ("crunchy data" → "crunchydata"). */
export function readCompounds(lower: string, terms: QueryTerm[]): ParsedQuery["compounds"] {
  const compounds: ParsedQuery["compounds"] = [];
  const plain = lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  for (let i = 0; i + 1 < plain.length; i++) {
    const a = plain[i]!;
    const b = plain[i + 1]!;
    const ta = terms.find((t) => t.word === a);
    const tb = terms.find((t) => t.word === b);
    if (ta && tb && a.length >= 2 && b.length >= 2 && !/^\d+$/.test(a + b))
      compounds.push({ word: a + b, parts: [a, b] });
  }
  return compounds;
}

function relatedWords(word: string, lower: string): string[] {
  const out = new Set<string>();
  const s = stem(word);
  for (const group of CONCEPTS) {
    if (group.some((g) => g === word || stem(g) === s))
      for (const g of group) if (g !== word && !g.includes(" ")) out.add(g);
  }
  // Multi-word concepts ("how many") come from the message itself.
  for (const group of CONCEPTS) {
    for (const g of group)
      if (g.includes(" ") && lower.includes(g) && g.split(" ").includes(word))
        for (const x of group) if (!x.includes(" ")) out.add(x);
  }
  return [...out];
}
