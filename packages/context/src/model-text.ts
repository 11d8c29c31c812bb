import type { ArtifactsGetResult, ArtifactsGetTool } from "./artifacts-get.js";
import type { ExternalizedResult } from "./externalizer.js";
import { ARTIFACTS_GET_TOOL_NAME, type ModelHint } from "./model-hint.js";

/**
 * A stored output's reference as the plain text a model reads (no JSON to unescape): what it
 * is, its size, the summary, the preview and exactly how to call artifacts_get for a part.
 */
export function renderHintText(hint: ModelHint): string {
  const size = `${hint.size_bytes.toLocaleString("en-US")} bytes${hint.lines === undefined ? "" : `, ${hint.lines.toLocaleString("en-US")} lines`}`;
  const lines = [
    `[stored as ${hint.artifact_reference}${hint.label ? ` (${hint.label})` : ""}: ${size}; not in the prompt]`,
  ];
  if (hint.summary) lines.push(`summary: ${hint.summary}`);
  if (hint.preview) lines.push(`preview:\n${hint.preview}`);
  if (hint.redacted && hint.redacted.length > 0)
    lines.push(`secrets replaced before storing: ${hint.redacted.join(", ")}`);
  lines.push(hint.hint);
  return lines.join("\n");
}

/** What the model reads for one externalized tool output: the output itself when kept inline, else the plain-text reference. */
export function modelTextOf(result: ExternalizedResult): string {
  return result.action === "stashed" && result.hint ? renderHintText(result.hint) : result.content;
}

/**
 * An artifacts_get answer as plain text: `text` is the selected content exactly as stored,
 * `note` one or more lines on what it was, what was left out and the call for the next part.
 */
export function renderGetAnswerText(answer: ArtifactsGetResult): { text: string; note: string } {
  if ("loop_guard" in answer) {
    const tries = answer.suggestions.map(
      (s) => `try ${ARTIFACTS_GET_TOOL_NAME} ${JSON.stringify({ ref: answer.artifact_reference, selector: s })}`,
    );
    return { text: "", note: [answer.note, ...tries].join("\n") };
  }
  const where = `${answer.artifact_reference}${answer.label ? ` (${answer.label})` : ""}, ${answer.size_bytes} bytes, ${answer.total_lines} lines`;
  const parts = [
    `[${ARTIFACTS_GET_TOOL_NAME}: ${answer.chars} chars of ${where}, selector ${JSON.stringify(answer.selector)}${answer.truncated ? "; more is left" : "; nothing left out"}]`,
  ];
  if (answer.omitted) parts.push(`left out: ${answer.omitted}`);
  if (answer.note) parts.push(`note: ${answer.note}`);
  if (answer.next)
    parts.push(
      `next part: call ${ARTIFACTS_GET_TOOL_NAME} with ${JSON.stringify({ ref: answer.artifact_reference, selector: answer.next })}`,
    );
  return { text: answer.text, note: parts.join("\n") };
}

/** An artifacts_get answer as the one plain-text block a model reads: the selected content, a blank line, then the note. */
export function renderGetAnswer(answer: ArtifactsGetResult): string {
  const { text, note } = renderGetAnswerText(answer);
  return text.length === 0 ? note : `${text}${text.endsWith("\n") ? "" : "\n"}\n${note}`;
}

/**
 * Runs artifacts_get and returns what the model reads, in plain text (ArtifactsGetTool.handle):
 * the selected content, a blank line, then the note; a bad call is answered with `CODE: message`
 * and a hint naming a tool.
 */
export function artifactsGetText(tool: ArtifactsGetTool, input: unknown): Promise<string> {
  return tool.handle(input);
}
