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

/** A best guess at the MIME type of content when the caller gave none. */
export function sniffMime(text: string | undefined): string {
  if (text === undefined) return "application/octet-stream";
  const t = text.trimStart();
  if ((t.startsWith("{") || t.startsWith("[")) && looksLikeJson(t)) return "application/json";
  if (/^<!doctype html|^<html[\s>]/i.test(t)) return "text/html";
  return "text/plain";
}

function looksLikeJson(text: string): boolean {
  if (text.length > 4 * 1024 * 1024) return false;
  try {
    JSON.parse(text);
    return true;
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
