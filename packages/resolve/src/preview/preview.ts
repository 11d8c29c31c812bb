import { ArefError, MAX_SUMMARY_CHARS, parseWith } from "@artifact-refs/schema";
import { z } from "zod";
import { clip, fmtInt, isBinaryBytes, looksBinary } from "../text.js";
import { previewCode } from "./code.js";
import { previewCsv } from "./csv.js";
import { detectKind } from "./detect.js";
import { previewHtml } from "./html.js";
import { previewJson } from "./json.js";
import { previewLog } from "./log.js";
import { previewText } from "./plain.js";
import { previewTestOutput } from "./test-output.js";
import {
  DEFAULT_PREVIEW_MAX_CHARS,
  type Preview,
  type PreviewKind,
  type PreviewOptions,
  type RawPreview,
} from "./types.js";

const decoder = new TextDecoder("utf-8");

const PREVIEW_KINDS = [
  "json",
  "log",
  "test",
  "code",
  "html",
  "csv",
  "text",
  "binary",
  "empty",
] as const satisfies readonly PreviewKind[];
const PreviewOptionsSchema = z.object({
  mime: z.string().optional(),
  label: z.string().optional(),
  maxChars: z.number().int("must be a whole number").min(1).optional(),
  kind: z.enum(PREVIEW_KINDS).optional(),
});

/**
 * A structural preview of an artifact, without an LLM: its kind (from the MIME type, the
 * label's extension or the content), a summary of at most 500 chars, and a preview of at most
 * `maxChars` (default 2,000): JSON shape, log errors and tail, failing tests, code outline,
 * HTML title and text, CSV header and row count, text head and tail.
 */
export function preview(content: string | Uint8Array, options: PreviewOptions = {}): Preview {
  if (typeof content !== "string" && !(content instanceof Uint8Array)) {
    throw new ArefError(
      "INVALID_INPUT",
      `preview needs a string or bytes (Uint8Array), got ${content === null ? "null" : typeof content}`,
      {
        hint: "pass the artifact's text or its bytes",
      },
    );
  }
  const opts = parseWith(PreviewOptionsSchema, options ?? {}, "preview options");
  const maxChars = opts.maxChars ?? DEFAULT_PREVIEW_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new ArefError("INVALID_INPUT", `preview maxChars must be a positive integer, got ${maxChars}`, {
      hint: "e.g. maxChars: 2000",
    });
  }
  options = opts;
  const size = typeof content === "string" ? content.length : content.length;
  const binary = typeof content === "string" ? looksBinary(content) : isBinaryBytes(content);
  if (binary) {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const magic = [...bytes.subarray(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    return {
      kind: "binary",
      summary: clip(
        `Binary content, ${fmtInt(bytes.length)} bytes${options.mime ? ` (${options.mime})` : ""}`,
        MAX_SUMMARY_CHARS,
      ),
      preview: clip(`first bytes: ${magic}`, maxChars),
      stats: { bytes: bytes.length },
    };
  }
  const text = typeof content === "string" ? content : decoder.decode(content);
  let kind = options.kind ?? detectKind(text, options.mime, options.label);
  let raw: RawPreview;
  try {
    raw = build(kind, text, maxChars, options.label);
  } catch {
    // A previewer must never fail a put (JSON nested too deep to walk, say): fall back to the
    // text head and tail, and say so in the kind.
    raw = previewText(text, maxChars);
    kind = "text";
  }
  return {
    kind: kind,
    summary: clip(raw.summary, MAX_SUMMARY_CHARS),
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
  if (input === null || typeof input !== "object") {
    throw new ArefError(
      "INVALID_INPUT",
      "summarize needs { text, bytes, mime, label? } (ArtifactStore's SummarizeInput)",
    );
  }
  return preview(input.text ?? input.bytes, { mime: input.mime, label: input.label }).summary;
}
