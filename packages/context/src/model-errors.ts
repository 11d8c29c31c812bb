import type { ArefError } from "@artifact-refs/schema";
import { ARTIFACTS_GET_TOOL_NAME } from "./model-hint.js";

/** The tool that lists a session's artifacts (served by the MCP server and the adapters). */
export const ARTIFACTS_LIST_TOOL_NAME = "artifacts_list";

/**
 * The hint a model reads with an error: the error's own, unless it names a command line
 * (`aref …`), which a model cannot run; then one that names the tool it can call.
 */
export function modelErrorHint(error: Pick<ArefError, "code" | "hint">): string | undefined {
  if (error.hint === undefined || !/`aref\b|\baref [a-z]/.test(error.hint)) return error.hint;
  switch (error.code) {
    case "NOT_FOUND":
    case "EXPIRED":
    case "UNKNOWN_SESSION":
      return `call ${ARTIFACTS_LIST_TOOL_NAME} to see this session's artifacts and their refs`;
    case "UNSUPPORTED":
      return `it is not text: read its resource (aref://sha256/<hex>) for the bytes instead of calling ${ARTIFACTS_GET_TOOL_NAME}`;
    default:
      return `the stored copy cannot be read; call ${ARTIFACTS_LIST_TOOL_NAME} to pick another artifact, or ask the user`;
  }
}

/** An error as the one plain-text block a model reads: `CODE: message` and a hint line. */
export function renderModelError(error: Pick<ArefError, "code" | "message" | "hint">): string {
  const hint = modelErrorHint(error);
  return `${error.code}: ${error.message}${hint ? `\nhint: ${hint}` : ""}`;
}
