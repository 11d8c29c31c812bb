import { anthropicClearPolicy } from "./anthropic-clear.js";
import { claudeCodePolicy } from "./claude-code.js";
import { deepagentsPolicy } from "./deepagents.js";
import { sweAgentPolicy } from "./swe-agent.js";
import type { PeerPolicy } from "./types.js";

export { POLICY_NAMES, type PeerPolicy, type PolicyContext, type PolicyName } from "./types.js";
export { deepagentsPolicy, DEEPAGENTS_EVICT_TOKENS } from "./deepagents.js";
export { claudeCodePolicy, CLAUDE_CODE_MAX_RESULT_CHARS, CLAUDE_CODE_PREVIEW_BYTES } from "./claude-code.js";
export { anthropicClearPolicy, ANTHROPIC_CLEAR_TRIGGER_TOKENS, ANTHROPIC_CLEAR_KEEP } from "./anthropic-clear.js";
export { sweAgentPolicy, SWE_AGENT_KEEP_OBSERVATIONS } from "./swe-agent.js";

/** The peer policies `aref analyze` compares against, in report order. */
export const PEER_POLICIES: readonly PeerPolicy[] = [
  deepagentsPolicy,
  claudeCodePolicy,
  anthropicClearPolicy,
  sweAgentPolicy,
];
