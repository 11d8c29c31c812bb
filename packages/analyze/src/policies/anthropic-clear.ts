import { toolIndexes, type PeerPolicy } from "./types.js";

/** Anthropic context editing (clear_tool_uses_20250919) defaults: trigger at 100,000 input tokens... */
export const ANTHROPIC_CLEAR_TRIGGER_TOKENS = 100_000;
/** ...and keep the last 3 tool uses. */
export const ANTHROPIC_CLEAR_KEEP = 3;
const PLACEHOLDER = "[Tool result cleared to save context]";

/**
 * Anthropic context editing, applied server-side on every request: when the request's input
 * is above 100k tokens, every tool result but the last 3 is replaced by a short placeholder.
 */
export const anthropicClearPolicy: PeerPolicy = {
  name: "anthropic_clear",
  rule: `above ${ANTHROPIC_CLEAR_TRIGGER_TOKENS.toLocaleString("en-US")} input tokens clear old tool results, keep the last ${ANTHROPIC_CLEAR_KEEP}`,
  static: false,
  toolContent(messages, index, upTo, ctx) {
    const m = messages[index]!;
    if (ctx.naiveTokens <= ANTHROPIC_CLEAR_TRIGGER_TOKENS) return m.content;
    const tools = toolIndexes(messages, upTo);
    const kept = new Set(tools.slice(-ANTHROPIC_CLEAR_KEEP));
    return kept.has(index) ? m.content : PLACEHOLDER;
  },
};
