import type { TranscriptEntry } from "@artifact-refs/schema";
import type { HistoryMessage } from "../assembler/types.js";

/**
 * A transcript as the prompt assembler's history: an externalized tool result carries its
 * `artifactRef` (the prompt then shows the reference, never the payload). Use it to resume
 * a session from its transcript file.
 */
export function historyFromTranscript(entries: readonly TranscriptEntry[]): HistoryMessage[] {
  return entries.map((e) => ({
    role: e.role,
    content: e.content,
    ...(e.tool_name === undefined ? {} : { tool_name: e.tool_name }),
    ...(e.tool_call_id === undefined ? {} : { tool_call_id: e.tool_call_id }),
    ...(e.tool_calls === undefined ? {} : { tool_calls: e.tool_calls }),
    ...(e.details?.artifactRef === undefined ? {} : { artifactRef: e.details.artifactRef }),
  }));
}
