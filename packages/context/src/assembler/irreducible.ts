import type { PromptPart } from "./types.js";

/** Names of the prompt's parts as the BUDGET_EXCEEDED error reports them. */
const PART_NAMES: Record<string, string> = {
  system: "system prompt",
  bootstrap: "bootstrap files",
  task: "task",
  hot_state: "hot state",
  checkpoint: "checkpoint",
  recall: "recall",
  turn: "request and last turns",
  tail: "tail",
  user: "user message",
};

export interface OverrunReport {
  /** The largest part of the prompt that is still over (what to shrink first). */
  part: string;
  /** Tokens over the budget. */
  over: number;
  /** Tokens of each part after every allowed cut. */
  parts: Record<string, number>;
  message: string;
}

/**
 * What is left of a prompt after every allowed cut, part by part, and by how much it is over:
 * the message of a fail-closed BUDGET_EXCEEDED names the largest part and the overrun.
 */
export function overrunReport(parts: readonly PromptPart[], limit: number): OverrunReport {
  const sizes: Record<string, number> = {};
  let total = 0;
  for (const p of parts) {
    const name = PART_NAMES[p.kind] ?? p.kind;
    sizes[name] = (sizes[name] ?? 0) + p.tokens;
    total += p.tokens;
  }
  const ranked = Object.entries(sizes).sort((a, b) => b[1] - a[1]);
  const part = ranked[0]?.[0] ?? "prompt";
  const over = total - limit;
  const listed = ranked.map(([name, tokens]) => `${name} ${tokens}`).join(", ");
  return {
    part,
    over,
    parts: sizes,
    message: `prompt is ${total} tokens, ${over} over maxPromptTokens ${limit} after every allowed cut (older turns in the checkpoint, every large message by reference, previews dropped); the irreducible part is ${listed}; largest: ${part}`,
  };
}
