import type { IndexedExecution } from "./executions.js";
import { isTypo, isVariant, mayHaveTypos } from "./tokens.js";

/** Key → positions in the session list of the records holding it, ascending, each once. */
type Postings = Map<string, number[]>;

/** Typo lists kept per session; past this many words the cache starts over. */
const TYPO_CACHE_WORDS = 256;

/**
 * What reference resolution needs to know about a whole session without scanning every
 * record per query: the vocabulary (in order of first appearance, as a full scan meets it),
 * and postings from words, stems, phrase words, tool classes, status codes and errors to the
 * records. Built once per session list and extended when records are appended.
 */
export class SessionIndex {
  /** The records indexed, by position; a list is served when it is a prefix of these (or they of it). */
  readonly items: IndexedExecution[] = [];
  /** token → positions; the Map's order is the session's vocabulary order. */
  readonly tokens: Postings = new Map();
  readonly stems: Postings = new Map();
  /** Words of the field sequences (phrase matches). */
  readonly sequenceWords: Postings = new Map();
  readonly classes: Postings = new Map();
  readonly statusCodes: Postings = new Map();
  readonly errors: number[] = [];
  /** Each location (path or URL) and each of its suffixes that starts after a "/", for explicit names. */
  readonly locationSuffixes: Postings = new Map();
  /** Basenames' stems (before the first dot), for explicit names. */
  readonly baseStems: Postings = new Map();
  /** The list object last indexed (see sessionIndexOf). */
  lastList: readonly IndexedExecution[] | undefined;
  /** word → the vocabulary's typos of it, in vocabulary order (kept up to date by add). */
  private readonly typoCache = new Map<string, string[]>();
  /**
   * The tokens that can be a variant of a word, in vocabulary order: those without a digit (isVariant
   * refuses a token with a digit, typo and abbreviation alike). A session's vocabulary grows mostly with
   * ids, numbers and timestamps; a word new to the typo cache is compared with these only, not with all.
   */
  private readonly variantTokens: string[] = [];
  /** Basename stem → the session's basename stems that are a typo of it (kept up to date by add). */
  private readonly stemTypoCache = new Map<string, string[]>();

  add(x: IndexedExecution): void {
    const p = this.items.length;
    this.items.push(x);
    for (const tok of x.tokens.keys()) {
      let at = this.tokens.get(tok);
      if (!at) {
        at = [];
        this.tokens.set(tok, at);
        if (canBeVariant(tok)) {
          this.variantTokens.push(tok);
          for (const [word, found] of this.typoCache) if (isVariant(word, tok)) found.push(tok);
        }
      }
      at.push(p);
    }
    for (const s of x.stems.keys()) post(this.stems, s, p);
    const seen = new Set<string>();
    for (const { words } of x.sequences) {
      for (const w of words) {
        if (seen.has(w)) continue;
        seen.add(w);
        post(this.sequenceWords, w, p);
      }
    }
    for (const c of x.classes.keys()) post(this.classes, c, p);
    for (const code of new Set(x.statusCodes)) post(this.statusCodes, code, p);
    if (x.isError) this.errors.push(p);
    const suffixes = new Set<string>();
    for (const loc of x.locations) {
      suffixes.add(loc);
      for (let i = loc.indexOf("/"); i !== -1; i = loc.indexOf("/", i + 1))
        if (i + 1 < loc.length) suffixes.add(loc.slice(i + 1));
    }
    for (const suffix of suffixes) post(this.locationSuffixes, suffix, p);
    for (const s of new Set(x.basenames.map((b) => b.split(".")[0]!))) {
      if (!this.baseStems.has(s) && mayHaveTypos(s))
        for (const [name, found] of this.stemTypoCache) if (isTypo(name, s)) found.push(s);
      post(this.baseStems, s, p);
    }
  }

  /** Tokens of the first `n` records that are a typo of `word`, in vocabulary order. */
  typosOf(word: string, n: number): string[] {
    let found = this.typoCache.get(word);
    if (!found) {
      found = [];
      for (const tok of this.variantTokens) if (isVariant(word, tok)) found.push(tok);
      if (this.typoCache.size >= TYPO_CACHE_WORDS) this.typoCache.clear();
      this.typoCache.set(word, found);
    }
    // A token belongs to the first n records when its first position is below n.
    return found.filter((tok) => this.tokens.get(tok)![0]! < n);
  }

  /**
   * The basename stems of the session that are a typo of `name` (a name's stem), of every record: a
   * caller windows their postings to its records. Walks the stems once per name (isTypo refuses a stem
   * with a digit or under 5 characters, so only the others are kept), then answers from a cache that
   * add keeps up to date: a name asked again does not walk the session's files again.
   */
  stemTyposOf(name: string): readonly string[] {
    if (!mayHaveTypos(name)) return NONE;
    let found = this.stemTypoCache.get(name);
    if (!found) {
      found = [];
      for (const s of this.baseStems.keys()) if (isTypo(name, s)) found.push(s);
      if (this.stemTypoCache.size >= TYPO_CACHE_WORDS) this.stemTypoCache.clear();
      this.stemTypoCache.set(name, found);
    }
    return found;
  }
}

const NONE: readonly string[] = [];

/** Whether isVariant(word, tok) can hold for some word: no digit in tok (isTypo and isAbbreviation both refuse one). */
function canBeVariant(tok: string): boolean {
  return !/\d/.test(tok);
}

function post(map: Postings, key: string, p: number): void {
  const at = map.get(key);
  if (at) at.push(p);
  else map.set(key, [p]);
}

/**
 * How many records of a postings list are looked at: the `head` first and the `tail` latest.
 * A word, tool kind or name held by more records than that says little on its own (its IDF is
 * low): the first ones serve "the first …", the latest ones "the last …" and recency ties, and
 * a record in between that also holds a rarer word is found through that word's list.
 */
export interface PostingWindow {
  head: number;
  tail: number;
}
export const UNBOUNDED: PostingWindow = { head: Number.POSITIVE_INFINITY, tail: Number.POSITIVE_INFINITY };

/**
 * A set of positions below `n`. Kept as a Set of the positions marked (no buffer of the session's
 * size per call: a call costs what it marks, which the posting window bounds, not the session's length).
 */
export class Marks {
  private readonly hits = new Set<number>();
  private all = false;
  constructor(readonly n: number) {}
  set(p: number): void {
    this.hits.add(p);
  }
  has(p: number): boolean {
    return this.all || this.hits.has(p);
  }
  /** Every position (a check that must look at every record). */
  fill(): void {
    this.all = true;
  }
  /** The positions set, ascending. */
  positions(): number[] {
    if (this.all) return Array.from({ length: this.n }, (_, i) => i);
    return [...this.hits].sort((a, b) => a - b);
  }
}

/** Marks the positions of a postings list below `marks.n` (the first n records), within the window. */
export function markPositions(
  marks: Marks,
  positions: readonly number[] | undefined,
  window: PostingWindow = UNBOUNDED,
): void {
  if (!positions) return;
  const n = marks.n;
  const count = countBelow(positions, n); // positions is ascending: a binary search finds where those below n end
  if (count <= window.head + window.tail) {
    for (let i = 0; i < count; i++) marks.set(positions[i]!);
    return;
  }
  for (let i = 0; i < window.head; i++) marks.set(positions[i]!);
  for (let i = count - window.tail; i < count; i++) marks.set(positions[i]!);
}

/** How many positions of an ascending list are below `n` (a binary search: no pass over the list). */
export function countBelow(positions: readonly number[] | undefined, n: number): number {
  if (!positions) return 0;
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (positions[mid]! < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many positions below `n` are in `a` or `b` (both ascending). */
export function unionCount(a: readonly number[] | undefined, b: readonly number[] | undefined, n: number): number {
  const x = a ?? [];
  const y = b ?? [];
  let i = 0;
  let j = 0;
  let count = 0;
  while (true) {
    const u = i < x.length && x[i]! < n ? x[i]! : Number.POSITIVE_INFINITY;
    const v = j < y.length && y[j]! < n ? y[j]! : Number.POSITIVE_INFINITY;
    if (u === Number.POSITIVE_INFINITY && v === Number.POSITIVE_INFINITY) return count;
    count++;
    if (u <= v) i++;
    if (v <= u) j++;
  }
}

const sessions = new WeakMap<object, SessionIndex>();

/**
 * The index of `list` (the session's records in resolution order), cached per `key` (the
 * caller's executions array). Reused when `list` is a prefix of what was indexed (a call with
 * `after`), extended when what was indexed is a prefix of `list` (records appended), and built
 * anew otherwise: records are compared by identity, so a replaced, removed or reordered record
 * never meets a stale index.
 */
export function sessionIndexOf(key: object, list: readonly IndexedExecution[]): SessionIndex {
  let s = sessions.get(key);
  // The prepared list of an array only grows by push (a change makes a new list): the same list
  // object, no shorter than what was indexed, extends it.
  const grown = s !== undefined && s.lastList === list && list.length >= s.items.length;
  if (!s || (!grown && !samePrefix(s.items, list))) {
    s = new SessionIndex();
    sessions.set(key, s);
  }
  for (let i = s.items.length; i < list.length; i++) s.add(list[i]!);
  s.lastList = list;
  return s;
}

function samePrefix(a: readonly IndexedExecution[], b: readonly IndexedExecution[]): boolean {
  const m = Math.min(a.length, b.length);
  for (let i = 0; i < m; i++) if (a[i] !== b[i]) return false;
  return true;
}
