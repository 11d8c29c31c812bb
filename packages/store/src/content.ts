import { createHash } from "node:crypto";
import type { ArtifactId } from "@artifact-refs/schema";

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

export function sha256Hex(bytes: Uint8Array): ArtifactId {
  return createHash("sha256").update(bytes).digest("hex");
}

export function toBytes(content: Uint8Array | string): Uint8Array {
  return typeof content === "string" ? encoder.encode(content) : content;
}

/** The text of `bytes`, or undefined when they are not valid UTF-8 (or contain NUL). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A best guess at the MIME type of content when the caller gave none (the one sniffer: the
 * store's put and context's externalizer both use it): PDF text, HTML, a JSON object or array
 * (parsed, up to 8 MiB); else text/plain, and application/octet-stream for bytes that are not text.
 */
export function sniffMime(text: string | undefined): string {
  if (text === undefined) return "application/octet-stream";
  const head = text.slice(0, 512).trimStart();
  if (head.startsWith("%PDF-")) return "application/pdf";
  if (/^(<!doctype html|<html[\s>])/i.test(head)) return "text/html";
  if ((head.startsWith("{") || head.startsWith("[")) && text.length <= 8 * 1024 * 1024) {
    const tail = text.trimEnd();
    if ((tail.endsWith("}") || tail.endsWith("]")) && parsesAsJsonObject(text)) return "application/json";
  }
  return "text/plain";
}

function parsesAsJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}

/**
 * Default summary (docs/ARCHITECTURE.md §oversized): the first 200 characters with whitespace runs folded.
 * Structural previews (resolve package) replace it through ArtifactStore's `summarize` option.
 */
export function defaultSummary(text: string | undefined, sizeBytes: number): string {
  if (text === undefined) return `binary content, ${sizeBytes} bytes`;
  const folded = text.slice(0, 2_000).replace(/\s+/g, " ").trim();
  return folded.length > 200 ? `${folded.slice(0, 199)}…` : folded;
}
