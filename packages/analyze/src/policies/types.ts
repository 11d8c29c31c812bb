import type { ReplayMessage } from "../formats.js";

export const POLICY_NAMES = ["deepagents", "claude_code", "anthropic_clear", "swe_agent_last5"] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

export interface PolicyContext {
  /** Tokens of the whole naive prompt of this call (what a server-side rule sees). */
  naiveTokens: number;
  count(text: string): number;
}

/**
 * A peer's context policy, simulated from its published defaults: what the model is sent for
 * the tool result at `index` in the prompt of the call that sees messages [0, upTo).
 * Non-tool messages are always sent verbatim.
 */
export interface PeerPolicy {
  name: PolicyName;
  /** One line: the rule and its defaults. */
  rule: string;
  /** True when the content of a tool message never depends on the call (lets the replay cache it). */
  static: boolean;
  toolContent(messages: readonly ReplayMessage[], index: number, upTo: number, ctx: PolicyContext): string;
}

/** Indexes of tool messages in [0, upTo). */
export function toolIndexes(messages: readonly ReplayMessage[], upTo: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < upTo; i++) if (messages[i]!.role === "tool") out.push(i);
  return out;
}

export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith("\n") ? n - 1 : n;
}
