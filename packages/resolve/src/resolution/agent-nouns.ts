/**
 * The doer of an action named by its verb: "linter" is what lints, "formatter" what formats, "scanner" what scans,
 * "parser" what parses. A record of the tool usually holds the verb ("ansible-lint", "ruff format", "nmap scan"), not
 * the noun; a stemmer does not join them ("linter" → linter, "lint" → lint).
 *
 * An everyday "-er" word ("user", "header", "server", "folder") is a thing of its own, not the doer of "use", "head",
 * "serve" or "fold": a word of the word-vector table counts only when its vector is near the verb's
 * ("scanner" ~ "scan"); a word the table lacks ("linter", "formatter", "parser") is a tool's jargon and counts.
 */
import { LRUCache } from "lru-cache";
import { knownWord, similarity } from "./near-words.js";

/** Least cosine of an everyday "-er" word to its verb. */
const DOER_COSINE = 0.6;

/** The verb forms an "-er" noun may come from ("linter" → lint; "scanner" → scan; "parser" → parse, pars). */
export function agentBases(word: string): string[] {
  const hit = memo.get(word);
  if (hit) return hit;
  const found = basesOf(word);
  memo.set(word, found);
  return found;
}

// Asked once per word and record scored: the latest words asked keep their answer.
const memo = new LRUCache<string, string[]>({ max: 4_096 });

function basesOf(word: string): string[] {
  const m = /^(\p{Ll}{3,})er$/u.exec(word);
  if (!m) return [];
  const s = m[1]!;
  const out = [s, `${s}e`];
  // A doubled last consonant ("scann", "formatt") is the verb's single one.
  if (/([b-df-hj-np-tv-z])\1$/.test(s)) out.push(s.slice(0, -1));
  if (!knownWord(word)) return out;
  return out.filter((b) => (similarity(word, b) ?? 0) >= DOER_COSINE);
}
