import type { HistoryMessage } from "./types.js";

/** Where each history message belongs: system prompt, task, or a turn. */
export interface HistoryLayout {
  /** Leading system messages. */
  system: number[];
  /** Messages after the system prompt and before the first assistant message (the task). */
  task: number[];
  /** Turns: an assistant message and everything after it up to the next assistant message. */
  turns: number[][];
}

/** Splits a history into system prompt, task and turns (pure, O(n)). */
export function layoutHistory(history: readonly HistoryMessage[]): HistoryLayout {
  const layout: HistoryLayout = { system: [], task: [], turns: [] };
  let i = 0;
  while (i < history.length && history[i]!.role === "system") layout.system.push(i++);
  while (i < history.length && history[i]!.role !== "assistant") layout.task.push(i++);
  for (; i < history.length; i++) {
    if (history[i]!.role === "assistant" || layout.turns.length === 0) layout.turns.push([i]);
    else layout.turns.at(-1)!.push(i);
  }
  return layout;
}

/** Number of model calls made so far (one per assistant message). */
export function callNumber(history: readonly HistoryMessage[]): number {
  let n = 0;
  for (const m of history) if (m.role === "assistant") n++;
  return n;
}
