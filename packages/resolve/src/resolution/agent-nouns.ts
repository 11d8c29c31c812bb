/**
 * Agent nouns coined from a verb ("linter", "formatter", "bundler", "scraper"): the tool that does a thing is named
 * after the thing it does, which is the word a record holds ("lint" in a lint command).
 * Only a word in -er that the vocabulary of everyday English (the word-vector table) does not hold is read so:
 * "header", "folder", "printer" are words of their own, not "head", "fold", "print".
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let vocabulary: Set<string> | null | undefined;

function known(): Set<string> | null {
  if (vocabulary !== undefined) return vocabulary;
  vocabulary = null;
  for (const rel of ["../../data/", "../data/"]) {
    try {
      const dir = fileURLToPath(new URL(rel, import.meta.url));
      vocabulary = new Set(readFileSync(`${dir}word-vectors.words.txt`, "utf8").split("\n").filter(Boolean));
      break;
    } catch {
      // not here: try the next place; without the table no word is read as an agent noun
    }
  }
  return vocabulary;
}

/** The verbs an agent noun may come from ("linter" → "lint", "formatter" → "format", "scraper" → "scrape"); [] otherwise. */
export function agentVerbs(word: string): string[] {
  const m = /^(\p{Ll}{3,}?)ers?$/u.exec(word);
  if (!m) return [];
  const vocab = known();
  if (!vocab || vocab.has(word) || vocab.has(word.replace(/s$/, ""))) return [];
  const s = m[1]!;
  const bases = new Set([s, `${s}e`, s.replace(/(.)\1$/, "$1")]);
  bases.delete(word);
  return [...bases].filter((b) => b.length >= 3);
}
