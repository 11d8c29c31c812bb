// `eval --why`: for each miss, which step lost it, without printing a held-out text. A miss answered with
// nothing is placed by where the expected record stands in the raw score order (every record scored, before
// the decision step): the raw top, 2nd-3rd, lower, or scoring 0 (no word of the message reaches it). A wrong
// answer is placed by the expected record's score against the answer's: tied (≥ 0.9), close (≥ 0.5), far, absent.
import { type ExecutionLike, indexExecution } from "../src/resolution/executions.js";
import { parseQuery } from "../src/resolution/query.js";
import { type ScoreContext, bigramsOf, matchTerm, scoreExecution } from "../src/resolution/score.js";

export interface MissLike {
  text: string;
  expected: string[];
  got: string[];
  scores: number[];
}

/** A plain context over every record: IDF from document frequencies (no typo candidates). */
function contextOf(query: ReturnType<typeof parseQuery>, xs: ReturnType<typeof indexExecution>[]): ScoreContext {
  const idf = new Map<string, number>();
  for (const t of query.terms) {
    let df = xs.filter((x) => x.tokens.has(t.word) || x.stems.has(t.stem)).length;
    if (df === 0) df = xs.filter((x) => matchTerm(t, x) !== undefined).length;
    idf.set(t.word, Math.log(1 + (xs.length - df + 0.5) / (df + 0.5)));
  }
  return { idf, typos: new Map(), bigrams: bigramsOf(query, idf) };
}

/** The step that lost a miss, as a short label (the same labels for every set, so held-out sets are counted). */
export function whyMissed(
  text: string,
  executions: readonly ExecutionLike[],
  expected: string[],
  got: string[],
  scores: number[],
): string {
  const query = parseQuery(text);
  if (got.length > 0) {
    const at = got.indexOf(expected[0] ?? "");
    if (at < 0) return "wrong answer, expected not among the candidates";
    const ratio = (scores[at] ?? 0) / (scores[0] || 1);
    return `wrong answer, expected ${ratio >= 0.9 ? "tied" : ratio >= 0.5 ? "close" : "far"}`;
  }
  if (query.general) return "nothing: called general";
  const xs = executions.map((e, i) => indexExecution(e, i));
  const context = contextOf(query, xs);
  const scored = xs.map((x) => scoreExecution(query, x, context)).sort((a, b) => b.total - a.total);
  const rank = scored.findIndex((s) => expected.includes(s.x.id));
  const s = scored[rank];
  if (!s || s.total <= 0) return "nothing: expected scores 0";
  const place = rank === 0 ? "raw top" : rank < 3 ? "raw 2nd-3rd" : "raw lower";
  return `nothing: expected ${place}${query.aboutSession ? ", about the session" : ""}`;
}
