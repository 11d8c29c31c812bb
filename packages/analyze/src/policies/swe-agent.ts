import { lineCount, toolIndexes, type PeerPolicy } from "./types.js";

/** SWE-agent's default history processor (LastNObservations): keep the last 5 observations. */
export const SWE_AGENT_KEEP_OBSERVATIONS = 5;

/**
 * SWE-agent: observations older than the last 5 become a one-line note
 * "Old environment output: (N lines omitted)". Lossy: the old output is gone.
 */
export const sweAgentPolicy: PeerPolicy = {
  name: "swe_agent_last5",
  rule: `keep the last ${SWE_AGENT_KEEP_OBSERVATIONS} observations, older ones become a one-line note (lossy)`,
  static: false,
  toolContent(messages, index, upTo) {
    const m = messages[index]!;
    const tools = toolIndexes(messages, upTo);
    const kept = new Set(tools.slice(-SWE_AGENT_KEEP_OBSERVATIONS));
    return kept.has(index) ? m.content : `Old environment output: (${lineCount(m.content)} lines omitted)`;
  },
};
