// The full-scan scoring step, the reference for test/resolution-index.test.ts: every call scans
// every record (vocabulary, typo and abbreviation candidates, document frequencies) and scores
// every record with the current scoring (`scoreExecution`). Ranking and decisions are src's own
// (`resolveWith`); only the candidate selection and the per-query context differ, which is what the
// equivalence test checks (the session index, its postings and its posting window against all records).
import type { ExecutionLike, IndexedExecution } from "../../src/resolution/executions.js";
import type { ParsedQuery } from "../../src/resolution/query.js";
import { type Resolution, type ResolveOptions, type SessionScorer, resolveWith } from "../../src/resolution/resolve.js";
import { type ScoreContext, bigramsOf, failureWordsOf, matchTerm, scoreExecution } from "../../src/resolution/score.js";
import { isVariant, mayHaveVariants } from "../../src/resolution/tokens.js";
import { plausibleVariant } from "../../src/resolution/variant-words.js";

/** Scores every record with a context computed from every record. */
const fullScanScorer: SessionScorer = (_executions, list) => (query) => {
  const context = fullScanContext(query, list);
  // Reasons built eagerly for every record (`explain`): src builds them only for the candidates it
  // returns, so the equivalence test also checks that the lazy reasons are the eager ones.
  return list.map((x) => scoreExecution(query, x, context, true));
};

export function resolveReferencesFullScan(
  text: string,
  executions: readonly ExecutionLike[],
  options: ResolveOptions = {},
): Resolution {
  return resolveWith(fullScanScorer, text, executions, options);
}

function fullScanContext(query: ParsedQuery, xs: IndexedExecution[]): ScoreContext {
  const vocab = new Set<string>();
  for (const x of xs) for (const tok of x.tokens.keys()) vocab.add(tok);
  const typos = new Map<string, string[]>();
  for (const t of query.terms) {
    if (!mayHaveVariants(t.word)) continue;
    const found: string[] = [];
    for (const tok of vocab) if (isVariant(t.word, tok) && plausibleVariant(t.word, tok)) found.push(tok);
    typos.set(t.word, found);
  }
  const failureWords = failureWordsOf(query, (t) => xs.some((x) => x.tokens.has(t.word) || x.stems.has(t.stem)));
  const idf = fullScanIdf(query, xs, typos);
  return { idf, typos, bigrams: bigramsOf(query, idf), failureWords };
}

function fullScanIdf(query: ParsedQuery, xs: IndexedExecution[], typos?: Map<string, string[]>): Map<string, number> {
  const n = xs.length;
  const idf = new Map<string, number>();
  for (const t of query.terms) {
    // Document frequency of the word itself; related words only when the word never occurs.
    let df = xs.filter((x) => x.tokens.has(t.word) || x.stems.has(t.stem)).length;
    if (df === 0) df = xs.filter((x) => matchTerm(t, x, typos) !== undefined).length;
    idf.set(t.word, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return idf;
}
