import { agentBases } from "./agent-nouns.js";
import { FAILURE_TERMS } from "./failure-words.js";
import { plainNumber } from "./number-forms.js";
import { plausibleVariant } from "./variant-words.js";
import { FIELD_WEIGHT, type Field, type IndexedExecution } from "./executions.js";
import type { ToolClass } from "./lexicon.js";
import type { ParsedQuery, QueryTerm, ValueKind } from "./query.js";
import {
  Marks,
  countBelow,
  type PostingWindow,
  type SessionIndex,
  UNBOUNDED,
  markPositions as markWindow,
  unionCount,
} from "./session.js";
import { isTypo, isVariant, mayHaveVariants, stem } from "./tokens.js";

export interface Scored {
  x: IndexedExecution;
  total: number;
  text: number;
  tool: number;
  outcome: number;
  /** A word of the message matched a name of the execution (path, URL, args, label). */
  named: boolean;
  /** A content word of the message is a whole name of the execution (a path segment, a file's stem, a host, a table). */
  strong: boolean;
  /** Share of the message's content words (weighted) that matched this execution. */
  coverage: number;
  /** Weight of the message's content words that matched. */
  matchedWeight: number;
  /** …by the word itself, its stem or a concept word (not a typo or a word near in meaning, which stand out too easily). */
  ownWeight: number;
  /** Words of the message that matched a name field (path, URL, args, label). */
  namedWords: string[];
  /** Words of the message that matched anywhere. */
  matchedWords: string[];
  /** The part of `text` that came from concept-related words only (weak evidence). */
  related: number;
  /** A question about an amount that this record's result answers (a number beside its word, or an amount of the kind asked). */
  answered: boolean;
  /** …by an amount of the kind asked ("312 MB" for "how much disk"). */
  amounted: boolean;
  /** A name of the message matched this record (matchName above 0). */
  nameMatched: boolean;
  /**
   * Why the record matched, in words. Built only when read (by the candidates a resolution returns):
   * most scored records are never returned, and building these strings for each of them was most of
   * a call's allocation in a long session.
   */
  reasons: string[];
}

const EXT_SYNONYMS: Record<string, string> = {
  yml: "yaml",
  htm: "html",
  jpeg: "jpg",
  mkd: "md",
  markdown: "md",
  tsx: "ts",
  jsx: "js",
  mjs: "js",
  cjs: "js",
};
const ext = (e: string) => EXT_SYNONYMS[e] ?? e;

interface TermMatch {
  score: number;
  /** Matched through a concept-related word, not the word, its stem, a typo or an abbreviation of it. */
  related: boolean;
  /** Matched through a word near in the word vectors (src/resolution/near-words.ts). */
  near: boolean;
  field: Field;
  /** The record's word that matched instead of the message's own (a typo, a related or near word). */
  other: string | undefined;
  /** The execution's word that matched (two message words matching one word count once). */
  token: string;
}

/** Per query: IDF of each word and, for each word, the session's words that are a typo of it. */
export interface ScoreContext {
  idf: Map<string, number>;
  typos: Map<string, string[]>;
  /**
   * Adjacent content words of the message ("rate limit") with the weight of a phrase match; `mid`: a number the
   * phrase holds between them ("usb 3 ports").
   */
  bigrams: Array<{ a: string; b: string; weight: number; mid?: string }>;
  /** The message's words for a failure ("error") that the session never writes: a failed record matches them. */
  failureWords?: ReadonlySet<string>;
}

/** A match through a word near in the word vectors counts this share of the field's weight (a concept word: 0.55). */
const NEAR_DISCOUNT = 0.4;

/** The weight of a summary match, relative to the field's own, in a question about a result (no name in it). */
const SUMMARY_ANSWER = 1.3;

/** Added per word (× its IDF, at least 1) when the result gives a number next to it, for a question about an amount. */
const ANSWER_BONUS = 1.5;

/** Counts written as words ("three separate entries"): a number as much as "3" is. */
const COUNT_WORDS = new Set([
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "dozen",
  "dozens",
  "hundred",
  "hundreds",
]);

/** A number within two words of the term in the record's summary ("open 312", "312 open tickets"), as "= 312". */
function valueNextTo(t: QueryTerm, x: IndexedExecution): string | undefined {
  const plain = t.word.replace(/s$/, "");
  for (const { field, words } of x.sequences) {
    if (field !== "summary") continue;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (w !== plain && stem(w) !== t.stem) continue;
      // Nearest first, the number after the word before the one ahead of it ("open 312", "312 open").
      for (const j of [i + 1, i - 1, i + 2, i - 2])
        if (j >= 0 && j < words.length && (/^\d/.test(words[j]!) || COUNT_WORDS.has(words[j]!))) return `= ${words[j]}`;
    }
  }
  return undefined;
}

/** Amounts in a summary: sizes in bytes ("312 MB", "9.41G", "148.3MB") and durations ("174 ms", "3m05s", "04:12.114", "38.2 s"). */
const AMOUNT: Record<ValueKind, RegExp> = {
  // A share used: "87%", "disk.percent 87", "1.71 GiB of 2 GiB", "1,900 of 2,000".
  fill: /\b\d+(?:\.\d+)?\s?%|\bpercent\w*\s+\d|\b\d[\d.,]*\s?(?:[KMGTP]i?B|[KMGT])?\s+of\s+\d[\d.,]*(?:\s?(?:[KMGTP]i?B|[KMGT])\b)?/i,
  size: /\b\d[\d.,]*\s?(?:[KMGTP]i?B|[KMGT]|bytes)\b/,
  duration:
    /\b\d[\d.,]*\s?(?:ms|s|sec|secs|seconds?|min|mins|minutes?|h|hrs?|hours?)\b|\b\d+m\d+s\b|\b\d+h\d+m\b|\b\d{1,2}:\d\d(?::\d\d)?(?:\.\d+)?\b/i,
};

function amountOf(kind: ValueKind, x: IndexedExecution): string | undefined {
  const summary = x.source.summary ?? x.source.result_summary ?? "";
  return AMOUNT[kind].exec(summary)?.[0];
}

const SPREADSHEET = ["xlsx", "xls", "ods", "csv"];
/** Names of file formats and the extensions of their files ("the markdown doc" is a .md file). */
const FORMAT_EXTENSIONS: Record<string, readonly string[]> = {
  markdown: ["md", "markdown", "mdx"],
  python: ["py", "ipynb"],
  javascript: ["js", "mjs", "cjs", "jsx"],
  typescript: ["ts", "tsx", "mts", "cts"],
  spreadsheet: SPREADSHEET,
  spreadsheets: SPREADSHEET,
  excel: ["xlsx", "xls"],
  pdf: ["pdf"],
  yaml: ["yaml", "yml"],
  notebook: ["ipynb"],
};

/** A failure word matched by the outcome counts this share of a summary match (a typo: 0.75). */
const FAILED_MATCH = 0.7;

export function matchTerm(t: QueryTerm, x: IndexedExecution, typos?: Map<string, string[]>): TermMatch | undefined {
  // No closures and no strings until a match is known: most executions match no word at all.
  let bestScore = 0;
  let bestField: Field | undefined;
  let bestOther: string | undefined;
  let bestToken = "";
  let bestRelated = false;
  let f: Field | undefined;
  // A word that is a whole name (a file's stem, a path segment, a host, a table) fits best.
  if ((f = x.tokens.get(t.word))) {
    const sc = FIELD_WEIGHT[f] * (x.segments.has(t.word) || x.segments.has(t.stem) ? 1.15 : 1);
    if (sc > bestScore) [bestScore, bestField, bestOther, bestToken] = [sc, f, undefined, t.word];
  }
  if ((f = x.stems.get(t.stem))) {
    const sc = FIELD_WEIGHT[f] * 0.9;
    if (sc > bestScore) [bestScore, bestField, bestOther, bestToken] = [sc, f, undefined, t.stem];
  }
  // "the markdown doc", "the python script": a format named for a file of that extension, as its own name.
  const formats = bestField === undefined ? FORMAT_EXTENSIONS[t.word] : undefined;
  if (formats)
    for (const e of x.extensions)
      if (formats.includes(e)) [bestScore, bestField, bestOther, bestToken] = [FIELD_WEIGHT.path * 0.9, "path", e, e];
  // "the linter" for a run of "ansible-lint": the doer of an action, where the record names the action (its command,
  // arguments or label; a summary's "contains" is no "container").
  if (bestField === undefined && t.word.endsWith("er")) {
    for (const base of agentBases(t.word)) {
      f = x.tokens.get(base);
      if (f && FIELD_WEIGHT[f] >= 2) {
        const sc = FIELD_WEIGHT[f] * 0.75;
        if (sc > bestScore) [bestScore, bestField, bestOther, bestToken, bestRelated] = [sc, f, base, base, true];
      }
    }
  }
  // "44.1k" for "44100", "10k" for "10,000": the same amount written otherwise.
  const plain = bestField === undefined && /^\d/.test(t.word) ? plainNumber(t.word) : undefined;
  if (plain && (f = x.tokens.get(plain))) {
    const sc = FIELD_WEIGHT[f] * 0.9;
    if (sc > bestScore) [bestScore, bestField, bestOther, bestToken] = [sc, f, plain, plain];
  }
  if (bestField === undefined && (typos?.has(t.word) || mayHaveVariants(t.word))) {
    const candidates =
      typos?.get(t.word) ??
      [...x.tokens.keys()].filter((tok) => isVariant(t.word, tok) && plausibleVariant(t.word, tok));
    for (const tok of candidates) {
      if ((f = x.tokens.get(tok))) {
        const sc = FIELD_WEIGHT[f] * 0.75;
        if (sc > bestScore) [bestScore, bestField, bestOther, bestToken] = [sc, f, tok, stem(tok)];
      }
    }
  }
  if (bestScore < FIELD_WEIGHT.base * 0.55) {
    for (let i = 0; i < t.related.length; i++) {
      if ((f = x.tokens.get(t.related[i]!) ?? x.stems.get(t.relatedStems[i]!))) {
        const sc = FIELD_WEIGHT[f] * 0.55;
        if (sc > bestScore)
          [bestScore, bestField, bestOther, bestToken, bestRelated] = [sc, f, t.related[i]!, t.relatedStems[i]!, true];
      }
    }
  }
  // A word near it in the word vectors: only when nothing else matched, and below a concept word.
  let near = false;
  if (bestField === undefined) {
    for (let i = 0; i < t.near.length; i++) {
      if ((f = x.tokens.get(t.near[i]!) ?? x.stems.get(t.nearStems[i]!))) {
        const sc = FIELD_WEIGHT[f] * NEAR_DISCOUNT;
        if (sc > bestScore)
          [bestScore, bestField, bestOther, bestToken, bestRelated, near] = [
            sc,
            f,
            t.near[i]!,
            t.nearStems[i]!,
            true,
            true,
          ];
      }
    }
  }
  if (bestField === undefined) return undefined;
  return {
    score: bestScore,
    related: bestRelated,
    near,
    field: bestField,
    other: bestOther,
    token: bestToken,
  };
}

/** An explicit name lowercased without "./" and trailing slashes (n), its last segment (base) split at dots. */
type NameParts = {
  n: string;
  slashN: string;
  base: string;
  bStem: string;
  bExt: string[];
  lastExt: string | undefined;
};
/** A message's names are few and scored against many records: their parts are kept (a small, bounded memo). */
const namePartsMemo = new Map<string, NameParts>();
function nameParts(name: string): NameParts {
  let parts = namePartsMemo.get(name);
  if (!parts) {
    if (namePartsMemo.size >= 256) namePartsMemo.clear();
    parts = splitName(name);
    namePartsMemo.set(name, parts);
  }
  return parts;
}
function splitName(name: string): NameParts {
  const n = name.toLowerCase().replace(/^\.\//, "").replace(/\/+$/, "");
  const base = n.split(/[\\/]/).pop() ?? n;
  const [bStem, ...bExt] = base.split(".");
  const last = bExt.at(-1);
  return { n, slashN: `/${n}`, base, bStem: bStem!, bExt, lastExt: last === undefined ? undefined : ext(last) };
}

/** Scores of an explicit name ("package.json", "src/app.ts", a URL) against an execution. */
export function matchName(name: string, x: IndexedExecution): number {
  const { n, slashN, base, bStem, bExt, lastExt } = nameParts(name);
  const nested = n.includes("/");
  for (const loc of x.locations) if (loc === n || loc.endsWith(slashN) || (nested && loc.endsWith(n))) return 4;
  let best = 0;
  // A folder named without a file ("the json from infra/es"): a record of a file inside it.
  if (
    n.includes("/") &&
    bExt.length === 0 &&
    x.locations.some((loc) => loc.startsWith(`${n}/`) || loc.includes(`/${n}/`))
  )
    best = 3;
  // Without splitting each basename (this runs for every candidate): its stem ends at the first dot,
  // its extension starts after the last.
  for (const b of x.basenames) {
    if (b === base) best = Math.max(best, 3.5);
    const dot = b.indexOf(".");
    const s = dot < 0 ? b : b.slice(0, dot);
    const sameExt = lastExt === undefined || (dot >= 0 && ext(b.slice(b.lastIndexOf(".") + 1)) === lastExt);
    if (s === bStem && sameExt) best = Math.max(best, 3.2);
    else if (sameExt && bStem && s && isTypo(bStem, s)) best = Math.max(best, 3);
    else if (s === bStem) best = Math.max(best, 2);
  }
  return best;
}

/**
 * A name that is no path or URL the record acted on but one its text states ("/mnt/data" in a df result,
 * "api.example.com" in a log line): its parts, in order and adjacent, in a field. Weaker than a location.
 */
export function nameInText(name: string, x: IndexedExecution): number {
  const parts = (name.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.replace(/s$/, ""));
  if (parts.length < 2) return 0;
  for (const { words } of x.sequences)
    for (let j = 0; j + parts.length <= words.length; j++)
      if (words[j] === parts[0] && parts.every((p, k) => words[j + k] === p)) return 1.5;
  return 0;
}

/**
 * The per-query context over the session `xs`: typo candidates from the session's vocabulary
 * and IDF from its document frequencies, both read from the session index instead of a scan.
 */
export function scoreContext(query: ParsedQuery, xs: IndexedExecution[], session: SessionIndex): ScoreContext {
  const n = xs.length;
  const typos = new Map<string, string[]>();
  for (const t of query.terms) {
    if (!mayHaveVariants(t.word)) continue;
    typos.set(
      t.word,
      session.typosOf(t.word, n).filter((tok) => plausibleVariant(t.word, tok)),
    );
  }
  const failureWords = failureWordsOf(
    query,
    (t) => countBelow(session.tokens.get(t.word), n) > 0 || countBelow(session.stems.get(t.stem), n) > 0,
  );
  const idf = idfTable(query, xs, session, typos);
  return { idf, typos, bigrams: bigramsOf(query, idf), failureWords };
}

/** The message's words for a failure that the session never writes (`written`: whether it does). */
export function failureWordsOf(query: ParsedQuery, written: (t: QueryTerm) => boolean): ReadonlySet<string> {
  const out = new Set<string>();
  for (const t of query.terms) if (FAILURE_TERMS.has(t.word) && !written(t)) out.add(t.word);
  return out;
}

/** Adjacent content words of the message ("rate limit"), weighted by their IDF. */
export function bigramsOf(query: ParsedQuery, idf: Map<string, number>): ScoreContext["bigrams"] {
  const bigrams: ScoreContext["bigrams"] = [];
  const seq = query.sequence;
  for (let i = 0; i + 1 < seq.length; i++) {
    const a = seq[i]!;
    const b = seq[i + 1]!;
    if (a.length < 3) continue;
    const wa = query.terms.find((t) => t.word.replace(/s$/, "") === a);
    const wb = b.length < 3 ? undefined : query.terms.find((t) => t.word.replace(/s$/, "") === b);
    if (wa && wb)
      bigrams.push({
        a,
        b,
        weight: ((idf.get(wa.word) ?? 1) + (idf.get(wb.word) ?? 1)) * Math.min(wa.weight, wb.weight),
      });
    // "usb 3 ports", "python 3 scripts": two content words around a number, the three adjacent in a field too.
    const c = seq[i + 2];
    if (wa && /^\d+$/.test(b) && c !== undefined && c.length >= 3) {
      const wc = query.terms.find((t) => t.word.replace(/s$/, "") === c);
      if (wc)
        bigrams.push({
          a,
          b: c,
          mid: b,
          weight: ((idf.get(wa.word) ?? 1) + (idf.get(wc.word) ?? 1)) * Math.min(wa.weight, wc.weight),
        });
    }
  }
  return bigrams;
}

function idfTable(
  query: ParsedQuery,
  xs: IndexedExecution[],
  session: SessionIndex,
  typos: Map<string, string[]>,
): Map<string, number> {
  const n = xs.length;
  const idf = new Map<string, number>();
  for (const t of query.terms) {
    // Document frequency of the word itself; related words only when the word never occurs.
    // A record holding the word also holds its stem (indexing adds both), so when the term's stem is
    // the word's own, the stem's postings are the union: counted by a binary search, not a merge of
    // two lists as long as the session.
    let df =
      t.stem === stem(t.word)
        ? countBelow(session.stems.get(t.stem), n)
        : unionCount(session.tokens.get(t.word), session.stems.get(t.stem), n);
    if (df === 0) {
      // Only records holding a typo or a related word of it can match it now.
      const marks = new Marks(n);
      markTermVariants(marks, t, session, typos);
      for (const p of marks.positions()) if (matchTerm(t, xs[p]!, typos) !== undefined) df++;
    }
    idf.set(t.word, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return idf;
}

/** Marks the records that hold a typo or a related word (or its stem) of the term. */
function markTermVariants(
  marks: Marks,
  t: QueryTerm,
  session: SessionIndex,
  typos: Map<string, string[]>,
  window: PostingWindow = UNBOUNDED,
): void {
  const markPositions = (m: Marks, positions: readonly number[] | undefined) => markWindow(m, positions, window);
  for (const e of FORMAT_EXTENSIONS[t.word] ?? []) markPositions(marks, session.tokens.get(e));
  if (mayHaveVariants(t.word)) {
    const found = typos.get(t.word);
    if (found) for (const tok of found) markPositions(marks, session.tokens.get(tok));
    else marks.fill(); // no typo list: matchTerm looks in every record
  }
  for (let i = 0; i < t.related.length; i++) {
    markPositions(marks, session.tokens.get(t.related[i]!));
    markPositions(marks, session.stems.get(t.relatedStems[i]!));
  }
  for (let i = 0; i < t.near.length; i++) {
    markPositions(marks, session.tokens.get(t.near[i]!));
    markPositions(marks, session.stems.get(t.nearStems[i]!));
  }
}

/**
 * The records of `xs` (the session list) where some part of the query can match: a superset of
 * those whose scoreExecution total is positive or that have any reason. Every part is covered: words
 * (the word, its stem, its typos and related words), names (through the records' location ends and basename stems), phrases
 * (records holding the phrase's first word), tool hints, errors and status codes.
 */
export function candidatePositions(
  query: ParsedQuery,
  xs: IndexedExecution[],
  session: SessionIndex,
  context: ScoreContext,
  window: PostingWindow = UNBOUNDED,
): Marks {
  const n = xs.length;
  const marks = new Marks(n);
  const markPositions = (m: Marks, positions: readonly number[] | undefined) => markWindow(m, positions, window);
  for (const t of query.terms) {
    markPositions(marks, session.tokens.get(t.word));
    markPositions(marks, session.stems.get(t.stem));
    const plain = /^\d/.test(t.word) ? plainNumber(t.word) : undefined;
    if (plain) markPositions(marks, session.tokens.get(plain));
    if (t.word.endsWith("er")) for (const base of agentBases(t.word)) markPositions(marks, session.tokens.get(base));
    markTermVariants(marks, t, session, context.typos, window);
  }
  for (const name of query.names) {
    // matchName is above 0 only when a location ends with the name or a basename's stem (before
    // the first dot) is the name's or a typo of it. A name held by many records (the same file read
    // and written again and again) is windowed like a word: its first and latest records serve
    // "the first …", "the last …" and "before the last one"; a session's length never makes every
    // one of them a candidate.
    const { n: full, bStem } = nameParts(name);
    const maybe = new Marks(n);
    // A location that matches the name ends with it at a "/" (or is it), or ends with its last segment.
    markWindow(maybe, session.locationSuffixes.get(full), window);
    markWindow(maybe, session.locationSuffixes.get(full.split(/[\\/]/).pop() ?? full), window);
    markWindow(maybe, session.baseStems.get(bStem), window);
    // The session's basename stems that are a typo of the name's (none for "orders3": a digit), cached per session.
    for (const s of session.stemTyposOf(bStem)) markWindow(maybe, session.baseStems.get(s), window);
    for (const p of maybe.positions()) if (!marks.has(p) && matchName(name, xs[p]!) > 0) marks.set(p);
  }
  for (const { a } of context.bigrams) markPositions(marks, session.sequenceWords.get(a));
  for (const c of query.compounds) markPositions(marks, session.tokens.get(c.word));
  for (const cls of query.hints.keys()) {
    if (cls === "file")
      markPositions(marks, session.classes.get("read")), markPositions(marks, session.classes.get("write"));
    else if (cls === "data")
      markPositions(marks, session.classes.get("sql")), markPositions(marks, session.classes.get("read"));
    else markPositions(marks, session.classes.get(cls));
  }
  if (query.wantsError) markPositions(marks, session.errors);
  for (const code of query.statusCodes) markPositions(marks, session.statusCodes.get(code));
  return marks;
}

/** What scoreExecution returns for a record outside candidatePositions: no word, name, phrase, tool kind or outcome matches. */
export function unscored(query: ParsedQuery, x: IndexedExecution): Scored {
  return {
    x,
    total: 0,
    text: 0,
    tool: 0,
    outcome: 0,
    named: false,
    strong: query.terms.some((t) => t.weight >= 1 && (x.segments.has(t.word) || x.segments.has(t.stem))),
    coverage: 0,
    matchedWeight: 0,
    ownWeight: 0,
    namedWords: [],
    matchedWords: [],
    related: 0,
    answered: false,
    amounted: false,
    nameMatched: false,
    reasons: [],
  };
}

const EMPTY: string[] = [];

/**
 * What scoreExecution returns: its reasons are built on first read, by scoring the record again with
 * `explain` (a class, not an object literal with a getter: every record scored makes one, and a
 * literal's accessor is defined anew for each).
 */
class ScoredRecord implements Scored {
  // Assigned in the constructor, not class fields: V8 sizes an instance by the constructor's
  // assignments, and fields it does not count go to a separate store, reallocated as it grows.
  declare x: IndexedExecution;
  declare total: number;
  declare text: number;
  declare tool: number;
  declare outcome: number;
  declare named: boolean;
  declare strong: boolean;
  declare coverage: number;
  declare matchedWeight: number;
  declare ownWeight: number;
  declare namedWords: string[];
  declare matchedWords: string[];
  declare related: number;
  declare answered: boolean;
  declare amounted: boolean;
  declare nameMatched: boolean;
  declare private query: ParsedQuery;
  declare private context: ScoreContext;
  declare private explained: string[] | undefined;
  constructor(x: IndexedExecution, query: ParsedQuery, context: ScoreContext, explained: string[] | undefined) {
    this.x = x;
    this.total = 0;
    this.text = 0;
    this.tool = 0;
    this.outcome = 0;
    this.named = false;
    this.strong = false;
    this.coverage = 0;
    this.matchedWeight = 0;
    this.ownWeight = 0;
    this.namedWords = EMPTY;
    this.matchedWords = EMPTY;
    this.related = 0;
    this.answered = false;
    this.amounted = false;
    this.nameMatched = false;
    this.query = query;
    this.context = context;
    this.explained = explained;
  }
  get reasons(): string[] {
    this.explained ??= scoreExecution(this.query, this.x, this.context, true).reasons;
    return this.explained;
  }
}

/**
 * The score of one record. With `explain` false (the default) no reason string is built: the returned
 * `reasons` is computed on first read, by scoring the record again with `explain` true, so only the
 * records a resolution returns pay for them. The figures are the same either way.
 */
export function scoreExecution(
  query: ParsedQuery,
  x: IndexedExecution,
  context: ScoreContext,
  explain = false,
): Scored {
  const { idf, typos } = context;
  const reasons: string[] = [];
  let text = 0;
  let named = false;
  let matchedWeight = 0;
  let ownWeight = 0;
  let totalWeight = 0;
  const matchedFields: string[] = [];
  const usedTokens = new Set<string>();
  const namedWords: string[] = [];
  const matchedWords: string[] = [];
  let related = 0;
  const answers: string[] = [];
  let answered = false;
  // Two words of the message written as one in the record ("crunchy data" → crunchydata.com).
  const joined = new Set<string>();
  for (const c of query.compounds) {
    const f = x.tokens.get(c.word);
    if (!f || joined.has(c.parts[0]) || joined.has(c.parts[1])) continue;
    joined.add(c.parts[0]);
    joined.add(c.parts[1]);
    usedTokens.add(c.word);
    text += ((idf.get(c.parts[0]) ?? 1) + (idf.get(c.parts[1]) ?? 1)) * FIELD_WEIGHT[f];
    if (FIELD_WEIGHT[f] >= 2) (named = true), namedWords.push(...c.parts);
    if (explain) matchedFields.push(`"${c.parts.join(" ")}" ~ "${c.word}" in ${fieldName(f)}`);
  }
  for (const t of query.terms) {
    totalWeight += t.weight;
    if (joined.has(t.word)) {
      matchedWeight += t.weight;
      ownWeight += t.weight;
      matchedWords.push(t.word);
      continue;
    }
    const m = matchTerm(t, x, typos);
    if (!m) continue;
    if (usedTokens.has(m.token)) continue;
    usedTokens.add(m.token);
    // A word only near in meaning ranks, but does not cover the message: whether the session explains
    // the message at all is decided by its own words (and the lexicon's concept words).
    if (!m.near) {
      matchedWeight += t.weight;
      matchedWords.push(t.word);
    }
    // Not through a typo or a near word: the word itself, its stem or a word of its concept group.
    if (!m.near && (m.other === undefined || m.related)) ownWeight += t.weight;
    // A question about what came back ("which …", "how …", "did …") is answered by a result: its summary counts more.
    const answerField = query.asksResult && m.field === "summary" ? SUMMARY_ANSWER : 1;
    const gained = t.weight * (idf.get(t.word) ?? 1) * m.score * answerField;
    text += gained;
    if (m.related) related += gained;
    // A word only near in meaning does not name the execution.
    if (FIELD_WEIGHT[m.field] >= 2 && t.weight >= 1 && !m.near) {
      named = true;
      namedWords.push(t.word);
    }
    if (explain) {
      const how = m.other === undefined ? `"${t.word}"` : `"${t.word}" ~ "${m.other}"`;
      matchedFields.push(`${how} in ${fieldName(m.field)}`);
    }
    // A question about an amount is answered by the result that gives a number for its word
    // ("how many are open?" → "open 312"), more than by the request that holds the word.
    if (query.asksValue && !m.near && t.weight >= 1 && !query.valueUnit?.words.includes(t.word)) {
      const at = valueNextTo(t, x);
      if (at) {
        // Not scaled down by a low IDF: the number beside the word answers even when every record holds the word.
        const bonus = t.weight * Math.max(1, idf.get(t.word) ?? 1) * ANSWER_BONUS;
        text += bonus;
        answered = true;
        if (explain) answers.push(`"${t.word}" ${at}`);
      }
    }
  }
  // "the api error", "the build failure": a word for a failure that the session never writes is said of a record
  // that failed, once the message's other words point at it (an outcome alone is no reference).
  if (x.isError && matchedWords.length > 0 && context.failureWords?.size) {
    const t = query.terms.find((t) => context.failureWords!.has(t.word) && !matchedWords.includes(t.word));
    if (t) {
      text += t.weight * (idf.get(t.word) ?? 1) * FIELD_WEIGHT.summary * FAILED_MATCH;
      matchedWeight += t.weight;
      matchedWords.push(t.word);
      if (explain) matchedFields.push(`"${t.word}" ~ the outcome (${x.source.result_type})`);
    }
  }
  // "how much disk …", "how long did it take": a result that states an amount of that kind answers it,
  // and covers the message's words that asked for it ("disk", "long").
  // Only a record the message's words or names already point at (an amount alone is no reference).
  let amounted = false;
  if (query.valueUnit && (matchedWords.length > 0 || query.names.some((n) => matchName(n, x) > 0))) {
    const amount = amountOf(query.valueUnit.kind, x);
    amounted = amount !== undefined;
    if (amount) {
      text += ANSWER_BONUS * Math.max(1, ...query.valueUnit.words.map((w) => idf.get(w) ?? 1));
      for (const t of query.terms)
        if (query.valueUnit.words.includes(t.word) && !matchedWords.includes(t.word)) {
          matchedWeight += t.weight;
          matchedWords.push(t.word);
        }
      answered = true;
      if (explain) answers.push(`a ${query.valueUnit.kind} (${amount})`);
    }
  }
  // The question words themselves ("how many", "how much") are answered by the amount.
  if (answered)
    for (const t of query.terms)
      if (/^how (many|much)$/.test(t.word) && !matchedWords.includes(t.word)) {
        matchedWeight += t.weight;
        matchedWords.push(t.word);
      }
  if (answers.length) reasons.push(`answer: the result gives ${answers.slice(0, 3).join(", ")}`);
  if (matchedFields.length) reasons.push(`words: ${matchedFields.slice(0, 6).join(", ")}`);

  let bestName = 0;
  for (const name of query.names) {
    const s = matchName(name, x) || nameInText(name, x);
    bestName = Math.max(bestName, s);
    if (s > 0) {
      text += s;
      named = true;
      if (explain) reasons.push(`name: "${name}" matches ${x.locations[0] ?? x.target}`);
    }
  }

  // Phrases: two adjacent words of the message adjacent in a field too ("rate limit").
  let phrase = 0;
  for (const { a, b, weight, mid } of context.bigrams) {
    for (const { field, words } of x.sequences) {
      let hit = false;
      if (mid === undefined) {
        for (let j = 0; j + 1 < words.length && !hit; j++) if (words[j] === a && words[j + 1] === b) hit = true;
      } else
        for (let j = 0; j + 2 < words.length && !hit; j++)
          if (words[j] === a && words[j + 1] === mid && words[j + 2] === b) hit = true;
      if (hit) {
        phrase = Math.max(phrase, weight * FIELD_WEIGHT[field]);
        break;
      }
    }
  }
  if (explain && phrase > 0) reasons.push("phrase match");
  text += phrase;

  // Tool kind.
  let tool = 0;
  let toolWhy = "";
  for (const [cls, h] of query.hints) {
    if (cls === "file" || cls === "data") continue;
    const m = x.classes.get(cls as ToolClass) ?? 0;
    if (h.weight * m > tool) {
      tool = h.weight * m;
      if (explain) toolWhy = `tool: ${x.tool} is ${h.what}`;
    }
  }
  const fileHint = query.hints.get("file");
  if (fileHint && (x.classes.has("read") || x.classes.has("write"))) {
    tool += fileHint.weight * Math.max(x.classes.get("read") ?? 0, x.classes.get("write") ?? 0);
    if (explain) toolWhy ||= `tool: ${x.tool} acts on a file`;
  }
  const dataHint = query.hints.get("data");
  if (
    dataHint &&
    (x.classes.has("sql") ||
      (x.classes.has("read") && x.extensions.some((e) => /^(csv|tsv|json|jsonl|parquet|xlsx?)$/.test(e))))
  ) {
    tool += dataHint.weight;
    if (explain) toolWhy ||= `tool: ${x.tool} returns data`;
  }
  if (toolWhy) reasons.push(toolWhy);

  let outcome = 0;
  if (query.wantsError && x.isError) {
    outcome = 3;
    if (explain) reasons.push(`outcome: ${x.source.result_type}`);
  }
  // "the last run that passed", "the green one": a record that did not fail.
  if (query.wantsSuccess && !x.isError && (text > 0 || tool > 0)) {
    outcome += 3;
    if (explain) reasons.push("outcome: no error");
  }
  for (const code of query.statusCodes) {
    if (x.statusCodes.includes(code)) {
      outcome += 1;
      if (explain) reasons.push(`status ${code}`);
    }
  }

  // Words the message sets aside ("so much for android") count against the records holding them.
  let total = text + tool + outcome;
  if (total > 0 && query.negated.some((w) => x.stems.has(w) || x.tokens.has(w))) {
    total *= 0.4;
    if (explain) {
      const setAside = query.negated.filter((w) => x.stems.has(w) || x.tokens.has(w));
      reasons.push(`set aside: ${setAside.map((w) => `"${w}"`).join(", ")}`);
    }
  }
  const s = new ScoredRecord(x, query, context, explain ? reasons : undefined);
  s.total = total;
  s.text = text;
  s.tool = tool;
  s.outcome = outcome;
  s.named = named;
  s.strong =
    query.terms.some((t) => t.weight >= 1 && (x.segments.has(t.word) || x.segments.has(t.stem))) || bestName >= 3;
  s.coverage = totalWeight > 0 ? matchedWeight / totalWeight : 0;
  s.matchedWeight = matchedWeight;
  s.ownWeight = ownWeight;
  s.namedWords = namedWords;
  s.matchedWords = matchedWords;
  s.related = related;
  s.answered = answered;
  s.amounted = amounted;
  s.nameMatched = bestName > 0;
  return s;
}

function fieldName(f: Field): string {
  return f === "base"
    ? "name"
    : f === "path"
      ? "path"
      : f === "args"
        ? "arguments"
        : f === "label"
          ? "label"
          : f === "query"
            ? "search query"
            : f === "about"
              ? "what the command does"
              : "summary";
}
