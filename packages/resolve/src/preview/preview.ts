import { ArefError } from "@artifact-refs/schema";
import { clip, fmtInt, isBinaryBytes, looksBinary } from "../text.js";
import { previewCode } from "./code.js";
import { previewCsv } from "./csv.js";
import { detectKind } from "./detect.js";
import { previewHtml } from "./html.js";
import { previewJson } from "./json.js";
import { previewLog } from "./log.js";
import { previewText } from "./plain.js";
import { previewTestOutput } from "./test-output.js";
import { DEFAULT_PREVIEW_MAX_CHARS, type Preview, type PreviewOptions, type RawPreview, SUMMARY_MAX_CHARS } from "./types.js";

const decoder = new TextDecoder("utf-8");

/**
 * A structural preview of an artifact, without an LLM: its kind (from the MIME type, the
 * label's extension or the content), a summary of at most 500 chars, and a preview of at most
 * `maxChars` (default 2,000): JSON shape, log errors and tail, failing tests, code outline,
 * HTML title and text, CSV header and row count, text head and tail.
 */
export function preview(content: string | Uint8Array, options: PreviewOptions = {}): Preview {
  const maxChars = options.maxChars ?? DEFAULT_PREVIEW_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new ArefError("INVALID_INPUT", `preview maxChars must be a positive integer, got ${maxChars}`, { hint: "e.g. maxChars: 2000" });
  }
  const size = typeof content === "string" ? content.length : content.length;
  const binary = typeof content === "string" ? looksBinary(content) : isBinaryBytes(content);
  if (binary) {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const magic = [...bytes.subarray(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    return {
      kind: "binary",
      summary: clip(`Binary content, ${fmtInt(bytes.length)} bytes${options.mime ? ` (${options.mime})` : ""}`, SUMMARY_MAX_CHARS),
      preview: clip(`first bytes: ${magic}`, maxChars),
      stats: { bytes: bytes.length },
    };
  }
  const text = typeof content === "string" ? content : decoder.decode(content);
  const kind = options.kind ?? detectKind(text, options.mime, options.label);
  let raw: RawPreview;
  try {
    raw = build(kind, text, maxChars, options.label);
  } catch {
    // A previewer must never fail a put: fall back to the text head and tail.
    raw = previewText(text, maxChars);
  }
  return {
    kind: kind,
    summary: clip(raw.summary, SUMMARY_MAX_CHARS),
    preview: clip(raw.preview, maxChars),
    stats: { ...raw.stats, ...(raw.stats.chars === undefined ? { chars: size } : {}) },
  };
}

function build(kind: Preview["kind"], text: string, maxChars: number, label?: string): RawPreview {
  switch (kind) {
    case "empty":
      return { summary: "Empty content", preview: "", stats: { chars: text.length } };
    case "json":
      return previewJson(text, maxChars);
    case "log":
      return previewLog(text, maxChars);
    case "test":
      return previewTestOutput(text, maxChars);
    case "code":
      return previewCode(text, maxChars, label);
    case "html":
      return previewHtml(text, maxChars);
    case "csv":
      return previewCsv(text, maxChars);
    case "binary":
    case "text":
      return previewText(text, maxChars);
  }
}

/** Input of ArtifactStore's `summarize` option (see @artifact-refs/store SummarizeInput). */
export interface SummarizeInputLike {
  text: string | undefined;
  bytes: Uint8Array;
  mime: string;
  label?: string | undefined;
}

/**
 * A summary (≤ 500 chars) for ArtifactStore's `summarize` option:
 * `new ArtifactStore({ driver, summarize })`.
 */
export function summarize(input: SummarizeInputLike): string {
  return preview(input.text ?? input.bytes, { mime: input.mime, label: input.label }).summary;
}
