import type { IndexedExecution } from "./executions.js";
import type { ParsedQuery } from "./query.js";
import type { Scored } from "./score.js";

export interface FollowUpAnswer {
  ids: string[];
  reasons: string[][];
}

/**
 * A follow-up on the previous answer of the conversation ("the other one", "the one before
 * that", "both of them", "show it again"), decided against the previous answer's ids. Returns
 * undefined when the message is no follow-up or none of the previous ids is in the session.
 */
export function resolveFollowUp(
  query: ParsedQuery,
  list: IndexedExecution[],
  previous: readonly string[],
  score: (q: ParsedQuery) => Scored[],
): FollowUpAnswer | undefined {
  if (!query.followUp) return undefined;
  const byId = new Map(list.map((x) => [x.id, x]));
  const prev = [...new Set(previous)].map((id) => byId.get(id)).filter((x): x is IndexedExecution => x !== undefined);
  if (prev.length === 0) return undefined;
  const first = prev[0]!;
  const why = (s: string) => [`follow-up: ${s} (previous answer: ${prev.map((p) => p.id).join(", ")})`];
  switch (query.followUp) {
    case "same":
      return { ids: [first.id], reasons: [why("the same one")] };
    case "both": {
      const other = prev.length >= 2 ? undefined : similarOther(first, list, prev);
      const ids = prev.length >= 2 ? prev.map((p) => p.id) : other ? [first.id, other.id] : [first.id];
      return { ids, reasons: ids.map(() => why("both of them")) };
    }
    case "other": {
      const other = prev.length >= 2 ? prev[1]! : similarOther(first, list, prev);
      return other ? { ids: [other.id], reasons: [why(`the other one than ${first.id}`)] } : undefined;
    }
    case "before":
    case "after": {
      const kind = kindOf(query, first, list, score);
      const side =
        query.followUp === "before"
          ? kind.filter((x) => x.index < first.index)
          : kind.filter((x) => x.index > first.index);
      const pick = query.followUp === "before" ? side.at(-1) : side[0];
      return pick ? { ids: [pick.id], reasons: [why(`the ${pick.tool} ${query.followUp} ${first.id}`)] } : undefined;
    }
  }
}

/** The records "of the kind in question": those the message's own words pick, else the same tool as the previous answer. */
function kindOf(
  query: ParsedQuery,
  anchor: IndexedExecution,
  list: IndexedExecution[],
  score: (q: ParsedQuery) => Scored[],
): IndexedExecution[] {
  if (
    query.terms.some((t) => t.weight >= 1) ||
    query.names.length > 0 ||
    [...query.hints.keys()].some((k) => k !== "file")
  ) {
    const scored = score(query);
    let max = 0;
    for (const s of scored) if (s.total > max) max = s.total;
    if (max > 0) return scored.filter((s) => s.total >= 0.75 * max).map((s) => s.x);
  }
  return list.filter((x) => x.tool === anchor.tool);
}

/** The most recent other thing like `x`: the same basename elsewhere, else the same tool on another target. */
function similarOther(
  x: IndexedExecution,
  list: IndexedExecution[],
  exclude: IndexedExecution[],
): IndexedExecution | undefined {
  const others = list.filter((y) => !exclude.includes(y) && y.group !== x.group);
  const sameBase = others.filter((y) => y.tool === x.tool && y.basenames.some((b) => x.basenames.includes(b)));
  return sameBase.at(-1) ?? others.filter((y) => y.tool === x.tool).at(-1);
}
