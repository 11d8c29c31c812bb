import { ArefError } from "@artifact-refs/schema";
import type { ExecutionLike, IndexedExecution } from "./executions.js";
import type { Resolution } from "./resolve.js";

/**
 * A semantic signal computed by the caller (e.g. @artifact-refs/resolve-semantic, a sentence-embedding model):
 * the similarity in [-1, 1] of the message to each execution's text (`executionText`), by execution id.
 * Ids missing from the map have no semantic evidence.
 */
export type SemanticSimilarities = ReadonlyMap<string, number>;

/** The latest executions a semantic answer may name (the session's recent window). */
export const SEMANTIC_WINDOW = 128;
/** Least similarity of the semantic winner (fixed on the tuned sets: no `none` message reaches it with the margin). */
export const SEMANTIC_MIN = 0.45;
/** Least lead of the semantic winner over the runner-up. */
export const SEMANTIC_MARGIN = 0.08;

/** What the semantic signal reads of an execution: label, tool, arguments and summary, in one line. */
export function executionText(e: ExecutionLike): string {
  const args = e.tool_args && Object.keys(e.tool_args).length ? JSON.stringify(e.tool_args) : "";
  return [e.label ?? e.artifact_title, e.tool_name, args, e.summary ?? e.result_summary]
    .filter((part): part is string => typeof part === "string" && part.length > 0)
    .join(" | ");
}

/**
 * The answer of the semantic signal alone, for a message that names something of the session (the decision
 * step did not call it general) but that lexical signals leave without a candidate: the execution of the
 * recent window clearly closest in meaning (at least SEMANTIC_MIN, SEMANTIC_MARGIN ahead of the runner-up),
 * or nothing. Never used to re-rank a lexical answer: on the tuned sets that only lost answers.
 */
export function semanticAnswer(list: readonly IndexedExecution[], similarities: SemanticSimilarities): Resolution {
  if (!(similarities instanceof Map))
    throw new ArefError("INVALID_INPUT", "semantic must be a Map from execution id to similarity");
  let best: { id: string; s: number } | undefined;
  let second = Number.NEGATIVE_INFINITY;
  for (const x of list.slice(-SEMANTIC_WINDOW)) {
    const s = similarities.get(x.id);
    if (typeof s !== "number" || !Number.isFinite(s)) continue;
    if (!best || s > best.s) {
      if (best) second = best.s;
      best = { id: x.id, s };
    } else if (s > second) second = s;
  }
  if (!best || best.s < SEMANTIC_MIN || best.s - second < SEMANTIC_MARGIN) return { candidates: [], ambiguous: false };
  const runnerUp = Number.isFinite(second) ? second.toFixed(2) : "none";
  return {
    candidates: [{ id: best.id, score: best.s, reasons: [`semantic: ${best.s.toFixed(2)} vs ${runnerUp}`] }],
    ambiguous: false,
  };
}
