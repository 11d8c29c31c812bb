import type { PeerPolicy } from "./types.js";

/** Claude Code: tool results above 50,000 chars are persisted to a file. */
export const CLAUDE_CODE_MAX_RESULT_CHARS = 50_000;
/** ...and the model sees a 2 KB preview. */
export const CLAUDE_CODE_PREVIEW_BYTES = 2_000;

/** Claude Code: a result over 50k chars is saved to a file and replaced by its path and a 2 KB preview. */
export const claudeCodePolicy: PeerPolicy = {
  name: "claude_code",
  rule: `tool results > ${CLAUDE_CODE_MAX_RESULT_CHARS.toLocaleString("en-US")} chars saved to a file, 2 KB preview`,
  static: true,
  toolContent(messages, index) {
    const m = messages[index]!;
    if (m.content.length <= CLAUDE_CODE_MAX_RESULT_CHARS) return m.content;
    const path = `tool-results/${m.tool_call_id ?? `result_${index}`}.txt`;
    return (
      `Output too large (${m.content.length} characters). Full output saved to: ${path}\n\n` +
      `Preview (first 2KB):\n${m.content.slice(0, CLAUDE_CODE_PREVIEW_BYTES)}\n...`
    );
  },
};
