import { readFile } from "node:fs/promises";
import { ArefError, isArefError, type ArtifactRef, type TranscriptEntry } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { deserializePayload, utf8Length, type PayloadEncoding } from "../payload.js";
import { parseTranscript, type ParsedLine, type ParsedTranscript, type TranscriptFormat } from "./format.js";

/** Keys the externalizer adds under `details`; rehydration removes them to restore the original line. */
export const REFERENCE_DETAIL_KEYS = ["artifactRef", "preview", "lines", "label", "redactions", "payload"] as const;

export interface Transcript extends ParsedTranscript {
  path?: string;
  /** The validated entries, in order. */
  entries: TranscriptEntry[];
}

/** Reads and validates a transcript file (JSONL or JSON). Errors carry the line number. */
export async function readTranscript(path: string, options: { format?: TranscriptFormat } = {}): Promise<Transcript> {
  const text = await readTranscriptText(path);
  return { ...parseTranscriptText(text, { ...options, where: path }), path };
}

/** A transcript file's text (errors: see transcriptReadError). */
export async function readTranscriptText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw transcriptReadError(path, error);
  }
}

/** The error for a transcript file that could not be read: NOT_FOUND when missing, else IO_ERROR. */
export function transcriptReadError(path: string, error: unknown): ArefError {
  const code = (error as NodeJS.ErrnoException).code;
  return new ArefError(
    code === "ENOENT" ? "NOT_FOUND" : "IO_ERROR",
    `cannot read transcript ${path}: ${(error as Error).message}`,
    { cause: error },
  );
}

export function parseTranscriptText(
  text: string,
  options: { format?: TranscriptFormat; where?: string } = {},
): Transcript {
  const parsed = parseTranscript(text, options);
  return { ...parsed, entries: parsed.lines.map((l) => l.entry) };
}

export interface RehydrationError {
  /** Index of the entry in the transcript. */
  index: number;
  line?: number;
  ref: string;
  code: string;
  message: string;
}

export interface RehydrateOptions {
  store: ArtifactStore;
  /** Throw on the first missing artifact instead of reporting it and reading on. */
  strict?: boolean;
}

export interface RehydratedTranscript {
  /** Entries with payloads restored; an entry whose artifact is missing keeps its reference and gets `details.rehydrationError`. */
  entries: TranscriptEntry[];
  /** The raw objects with payloads restored and the reference details removed (the original lines). */
  raws: Record<string, unknown>[];
  errors: RehydrationError[];
  /** How many entries were rehydrated from the store. */
  rehydrated: number;
}

/** The artifact reference of a transcript entry, if it has one. */
export function artifactRefOf(entry: { details?: Record<string, unknown> | undefined }): ArtifactRef | undefined {
  return entry.details?.artifactRef as ArtifactRef | undefined;
}

/** The stored payload of one reference, checked to be the exact bytes referenced. */
export async function loadPayloadText(store: ArtifactStore, ref: ArtifactRef): Promise<string> {
  const text = await store.getText(ref.artifact_id);
  if (utf8Length(text) !== ref.size_bytes) {
    throw new ArefError(
      "INTEGRITY",
      `artifact ${ref.short_ref} is ${utf8Length(text)} bytes, the transcript says ${ref.size_bytes}`,
      {
        details: { artifact_id: ref.artifact_id },
      },
    );
  }
  return text;
}

function stripReferenceDetails(details: Record<string, unknown>): Record<string, unknown> | undefined {
  const rest: Record<string, unknown> = { ...details };
  for (const key of REFERENCE_DETAIL_KEYS) delete rest[key];
  return Object.keys(rest).length === 0 ? undefined : rest;
}

function restore<T extends Record<string, unknown>>(obj: T, content: string): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (key === "content") out[key] = content;
    else if (key === "details") {
      const details = stripReferenceDetails(value as Record<string, unknown>);
      if (details !== undefined) out[key] = details;
    } else out[key] = value;
  }
  return out as T;
}

/**
 * Restores every referenced payload from the store, byte-exact (what was stored, i.e.
 * after redaction). A missing artifact is reported in `errors` (or thrown with `strict`);
 * the other entries are still returned.
 */
export async function rehydrateTranscript(
  input: Transcript | TranscriptEntry[],
  options: RehydrateOptions,
): Promise<RehydratedTranscript> {
  const lines: Pick<ParsedLine, "entry" | "raw" | "line">[] = Array.isArray(input)
    ? input.map((entry, i) => ({ entry, raw: entry as unknown as Record<string, unknown>, line: i + 1 }))
    : input.lines;
  const entries: TranscriptEntry[] = [];
  const raws: Record<string, unknown>[] = [];
  const errors: RehydrationError[] = [];
  let rehydrated = 0;
  for (const [index, { entry, raw, line }] of lines.entries()) {
    const ref = artifactRefOf(entry);
    if (ref === undefined) {
      entries.push(entry);
      raws.push(raw);
      continue;
    }
    try {
      const text = await loadPayloadText(options.store, ref);
      entries.push(restore(entry as unknown as Record<string, unknown>, text) as unknown as TranscriptEntry);
      raws.push(restore(raw, text));
      rehydrated++;
    } catch (error) {
      const code = isArefError(error) ? error.code : "INTERNAL";
      const message = `entry ${index + 1}${Array.isArray(input) ? "" : ` (line ${line})`}: cannot rehydrate ${ref.short_ref}: ${(error as Error).message}`;
      if (options.strict)
        throw new ArefError(isArefError(error) ? error.code : "INTERNAL", message, {
          cause: error,
          details: { line, ref: ref.short_ref },
        });
      errors.push({ index, line, ref: ref.short_ref, code, message });
      const rehydrationError = { code, message };
      entries.push({ ...entry, details: { ...entry.details, rehydrationError } });
      raws.push({ ...raw, details: { ...(raw.details as Record<string, unknown>), rehydrationError } });
    }
  }
  return { entries, raws, errors, rehydrated };
}

/** One entry's payload: from the store when it is a reference, else its inline content. */
export async function rehydrateEntry(entry: TranscriptEntry, store: ArtifactStore): Promise<TranscriptEntry> {
  const ref = artifactRefOf(entry);
  if (ref === undefined) return entry;
  const text = await loadPayloadText(store, ref);
  return restore(entry as unknown as Record<string, unknown>, text) as unknown as TranscriptEntry;
}

/** The original tool result value of an entry (a JSON value when the payload was JSON). */
export async function toolResultValue(entry: TranscriptEntry, store: ArtifactStore): Promise<unknown> {
  const ref = artifactRefOf(entry);
  const encoding: PayloadEncoding = ref?.payload ?? (entry.details?.payload === "json" ? "json" : "text");
  const text = ref === undefined ? entry.content : await loadPayloadText(store, ref);
  return deserializePayload(text, encoding);
}
