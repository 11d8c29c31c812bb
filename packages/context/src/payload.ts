import { ArefError } from "@artifact-refs/schema";
import { sniffMime } from "@artifact-refs/store/internal";

/** How a payload sits in a transcript: raw text, or a JSON value serialized as text. */
export type PayloadEncoding = "text" | "json";

export interface SerializedPayload {
  text: string;
  payload: PayloadEncoding;
  /** Best MIME guess (the caller's, when given). */
  mime: string;
  /** True for JSON, HTML and PDF text (docs/ARCHITECTURE.md §sidecar: stash structured content). */
  structured: boolean;
}

/**
 * A tool result as text. Strings stay as they are (byte-exact); any other JSON value is
 * serialized with JSON.stringify (two-space indent, so line selectors work) and marked
 * `payload: "json"` so a reader can restore the value.
 */
export function serializePayload(result: unknown, mime?: string): SerializedPayload {
  if (typeof result === "string") {
    const guessed = mime ?? sniffMime(result);
    return { text: result, payload: "text", mime: guessed, structured: isStructuredMime(guessed) };
  }
  if (result === undefined) return { text: "", payload: "text", mime: mime ?? "text/plain", structured: false };
  if (result instanceof Uint8Array) {
    throw new ArefError("UNSUPPORTED", "binary tool results are not supported by the externalizer", {
      hint: "store bytes with ArtifactStore.put and return a reference, or return text/JSON",
    });
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(result, null, 2);
  } catch (error) {
    throw new ArefError("INVALID_INPUT", `tool result is not JSON-serializable: ${(error as Error).message}`, {
      hint: "return a string or a plain JSON value (no cycles, no BigInt)",
    });
  }
  if (text === undefined) {
    throw new ArefError("INVALID_INPUT", `tool result of type ${typeof result} is not JSON-serializable`, {
      hint: "return a string or a plain JSON value",
    });
  }
  return { text, payload: "json", mime: mime ?? "application/json", structured: true };
}

/** Restores the original tool result from its text and encoding. */
export function deserializePayload(text: string, payload: PayloadEncoding): unknown {
  if (payload === "text") return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ArefError("CORRUPT_METADATA", `payload marked json does not parse: ${(error as Error).message}`);
  }
}

export function isStructuredMime(mime: string): boolean {
  return /^(application\/(json|[\w.+-]*\+json|pdf|xhtml\+xml)|text\/html)\b/i.test(mime);
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
