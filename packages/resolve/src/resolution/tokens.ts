/** Tokenizing, stemming and fuzzy matching for reference resolution. */
import { stemmer as porter } from "stemmer";

export const STOPWORDS = new Set(
  (
    "a an the this that these those it its it's is are was were be been being am do does did done doing have has had having " +
    "i me my mine we us our you your yours he she they them their what whats what's which who whom whose where when why how " +
    "can could would should will shall may might must of in on at to for from by with about into onto over under again " +
    "and or but not no nor so than too very just also only then there here up down out off any some all each every both per via " +
    "one ones thing things stuff something anything please pls thanks thank ok okay hey hi yes let lets let's me " +
    "show give tell pull paste display reopen as if going goes went gone happening happened second seconds minute minutes moment moments bring print say said says see look looks looked like get got go back find found " +
    "summarize summarise summary recap tldr tl dr points point explain describe need needs want know mean means " +
    "make made put take use well really actually exact exactly precise precisely kind sort bit lot lots much many more most less least " +
    "now currently presently nowadays again still already ago moment while since before after earlier later last latest first previous prior current " +
    "time times other another same new old once twice run runs running turn turned getting using saying doing having making taking looking trying seeing compare contrast " +
    "step steps came come comes coming recent recently newest between among roughly approximately " +
    "uh oh um umm hmm hm ah eh wow oops lol btw wait hang quick q whatever gonna wanna"
  ).split(/\s+/),
);

/** Words that name the kind of thing rather than the thing: matched, but weakly. */
export const GENERIC_NOUNS = new Set(
  "file files page pages document documents doc study paper article report thread post link links site website result results output outputs data content contents version info information text list entries entry item items record records value values number numbers response".split(
    " ",
  ),
);

/**
 * Porter stemmer (the `stemmer` package) over lowercased words: "READMEs"/"readme",
 * "listed"/"list", "configuration"/"configure". Words with digits and words of up to 3 letters stay whole.
 */
/** Adjectives of a calendar period and the period they stem to. */
const PERIOD_LY: Record<string, string> = {
  hourly: "hour",
  nightly: "night",
  daily: "day",
  weekly: "week",
  monthly: "month",
  quarterly: "quarter",
  yearly: "year",
};

export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  // The plural of a word kept whole is the word ("keys" → "key", "days" → "day"), not Porter's "kei", "dai".
  if (w.length === 4 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, 3);
  // "monthly", "daily", "quarterly": what comes every period is said of the period ("group by month").
  const period = PERIOD_LY[w];
  if (period) return period;
  return porter(w);
}

/** Splits camelCase and PascalCase words: "customerId" → ["customer", "id"]. */
export function camelParts(word: string): string[] {
  if (!/[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/.test(word)) return [];
  const parts = word
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(" ");
  return parts.length > 1 ? parts.map((p) => p.toLowerCase()) : [];
}

/** Word tokens of free text: lowercased, split on non-alphanumerics (keeping _ words whole too). */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    const lower = raw.toLowerCase();
    out.push(lower);
    if (raw.includes("_")) for (const p of lower.split("_")) if (p) out.push(p);
    if (/[A-Z]/.test(raw)) for (const p of camelParts(raw.replace(/_/g, " "))) if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/** Damerau-Levenshtein (optimal string alignment) distance, stopping early past `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2: number[] = new Array(b.length + 1).fill(0);
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    for (let j = 0; j <= b.length; j++) prev2[j] = prev[j]!;
    prev = cur;
    if (rowMin > max) return max + 1;
  }
  return prev[b.length]!;
}

/** True when `a` is a likely typo of `b` (one edit for 5+ letters, two for 9+). */
export function isTypo(a: string, b: string): boolean {
  if (a === b || !mayHaveTypos(a) || !mayHaveTypos(b)) return false;
  const allowed = Math.min(a.length, b.length) >= 9 ? 2 : 1;
  return editDistance(a, b, allowed) <= allowed;
}

/** Whether isTypo can hold for this word with any other: 5+ characters, no digit ("orders3" has none). */
export function mayHaveTypos(word: string): boolean {
  return word.length >= 5 && !/\d/.test(word);
}

/** Words that may be a typo (5+ letters) or an abbreviation (2-4 letters) of a session word. */
export function mayHaveVariants(word: string): boolean {
  return (
    word.length >= 5 ||
    (word.length >= 2 && word.length <= 4 && /^[a-z][a-z0-9]*[a-z]$/.test(word) && !isStopword(word))
  );
}

/**
 * A typo of `b` (5+ letters), an abbreviation of it (2-4 letters), or the head of a name written as one word
 * ("angels" → "angelsrefining", "postgres" → "postgresexporter": 5+ letters, then 4+ more).
 */
export function isVariant(a: string, b: string): boolean {
  return a.length >= 5 ? isTypo(a, b) || isNameHead(a, b) : isAbbreviation(a, b);
}

function isNameHead(a: string, b: string): boolean {
  return b.length >= a.length + 4 && b.startsWith(a) && !/\d/.test(a);
}

const VOWELS = /[aeiou]/;

/**
 * `a` (2-4 characters) abbreviates `b`, derived from the word's shape rather than a list:
 * a numeronym ("k8s" = k + 8 letters + s: kubernetes, "i18n"), a prefix of 3+ letters
 * ("conf", "repo" → repository), or consonants in order that start `b` ("cfg" → config,
 * "tf" → terraform, "db" → database, "msg" → message) when `a` has no vowel.
 */
export function isAbbreviation(a: string, b: string): boolean {
  if (a.length < 2 || a.length > 4 || b.length < a.length + 2 || a[0] !== b[0] || /\d/.test(b)) return false;
  const numeronym = /^([a-z])(\d{1,2})([a-z])$/.exec(a);
  if (numeronym) return b.length === Number(numeronym[2]) + 2 && b.endsWith(numeronym[3]!);
  if (/\d/.test(a)) return false;
  if (a.length >= 3 && b.startsWith(a)) return true;
  // "try", "dry", "sky" are words, not consonant abbreviations: "y" after the first letter is a vowel here.
  if (VOWELS.test(a) || /y/.test(a.slice(1)) || b.length < a.length + 3) return false;
  let j = 1;
  for (let i = 1; i < a.length; i++) {
    while (j < b.length && b[j] !== a[i]) j++;
    if (j >= b.length) return false;
    j++;
  }
  return true;
}

/** Question words people mistype; a typo of one ("whcih") is still a stopword. */
const TYPO_PRONE = ["which", "where", "there", "their", "about", "would", "could", "should", "whats", "what's"];
/** A stopword, or a swapped-letters typo of a question word ("whcih"). */
export function isStopword(word: string): boolean {
  if (STOPWORDS.has(word)) return true;
  return word.length >= 5 && TYPO_PRONE.some((s) => s.length === word.length && isTransposition(word, s));
}

function isTransposition(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i < a.length - 1 && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}
