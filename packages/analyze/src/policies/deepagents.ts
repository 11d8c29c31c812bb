import type { PeerPolicy } from "./types.js";

/** deepagents' FilesystemMiddleware default: evict tool results above 20,000 tokens. */
export const DEEPAGENTS_EVICT_TOKENS = 20_000;
const PREVIEW_LINES = 5;
/** Preview lines are cut at this many chars (long single-line outputs would otherwise be kept whole). */
const MAX_LINE_CHARS = 1_000;

/**
 * deepagents (LangChain): a tool result over 20k tokens is written to the virtual filesystem
 * (/large_tool_results/<id>) and replaced by a note with a head/tail preview of 5 + 5 lines.
 */
export const deepagentsPolicy: PeerPolicy = {
  name: "deepagents",
  rule: `tool results > ${DEEPAGENTS_EVICT_TOKENS.toLocaleString("en-US")} tokens evicted to a file, ${PREVIEW_LINES}+${PREVIEW_LINES}-line head/tail preview`,
  static: true,
  toolContent(messages, index, _upTo, ctx) {
    const m = messages[index]!;
    if (ctx.count(m.content) <= DEEPAGENTS_EVICT_TOKENS) return m.content;
    const id = m.tool_call_id ?? `result_${index}`;
    const lines = m.content.split("\n").map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l));
    const head = lines.slice(0, PREVIEW_LINES);
    const tail = lines.length > 2 * PREVIEW_LINES ? lines.slice(-PREVIEW_LINES) : lines.slice(PREVIEW_LINES);
    const omitted = Math.max(0, lines.length - head.length - tail.length);
    return [
      `Tool result too large, the result of this tool call ${id} was saved in the filesystem at this path: /large_tool_results/${id}`,
      "You can read the result from the filesystem by using the read_file tool, but make sure to only read part of the result at a time.",
      "You can do this by specifying an offset and limit in the read_file tool call.",
      "For example, to read the first 100 lines, you can use the read_file tool with offset=0 and limit=100.",
      "",
      "Here is a preview showing the head and tail of the result:",
      "",
      ...head,
      ...(omitted > 0 ? [`... [${omitted} lines truncated] ...`] : []),
      ...tail,
    ].join("\n");
  },
};
