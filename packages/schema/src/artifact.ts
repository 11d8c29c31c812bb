import { z } from "zod";
import { ArtifactIdSchema, SessionIdSchema, ShortRefSchema } from "./ids.js";

/** Semantic classification of an artifact (docs/ARCHITECTURE.md §references, plus tool_output and checkpoint). */
export const ArtifactTypeSchema = z.enum([
  "repo",
  "doc",
  "code",
  "log",
  "data",
  "plan",
  "result",
  "tool_output",
  "checkpoint",
]);
export type ArtifactType = z.infer<typeof ArtifactTypeSchema>;

export const ProducerSchema = z.enum(["dispatcher", "executor", "planner", "system", "user"]);
export type Producer = z.infer<typeof ProducerSchema>;

export const MAX_SUMMARY_CHARS = 500;
export const MAX_LABEL_CHARS = 300;

export const ToolInfoSchema = z.object({
  name: z.string().min(1).max(200),
  args: z.record(z.string(), z.unknown()).optional(),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

/**
 * Metadata of one stored blob (the docs/ARCHITECTURE.md §references ArtifactRecord plus label, tool, encoding).
 * Kept apart from the content and never duplicates it. One record per blob: the first
 * put sets it; later puts of the same bytes keep it (their labels live on references).
 */
export const ArtifactRecordSchema = z.object({
  artifact_id: ArtifactIdSchema,
  type: ArtifactTypeSchema,
  content_uri: z.string().min(1),
  content_hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  size_bytes: z.number().int().nonnegative(),
  created_at: z.string().datetime({ offset: true }),
  producer: ProducerSchema.optional(),
  summary: z.string().max(MAX_SUMMARY_CHARS).optional(),
  mime: z.string().max(200).optional(),
  label: z.string().max(MAX_LABEL_CHARS).optional(),
  tool: ToolInfoSchema.optional(),
  /** "utf-8" when the bytes are valid UTF-8 text, else "binary" (selectors refuse binary content). */
  encoding: z.enum(["utf-8", "binary"]).default("utf-8"),
  /** Kinds of secrets replaced before storing (redaction). */
  redactions: z.array(z.string()).optional(),
  /**
   * Present when the content is stored in chunks (content over 512 KiB): the id of the manifest
   * blob listing them, and how many there are. Absent: the content is the one blob named by the id.
   */
  chunked: z.object({ manifest: ArtifactIdSchema, chunks: z.number().int().positive() }).optional(),
});
export type ArtifactRecord = z.infer<typeof ArtifactRecordSchema>;

/** A session's reference to a blob. Blobs are shared; references are per session and may expire. */
export const SessionReferenceSchema = z.object({
  session_id: SessionIdSchema,
  artifact_id: ArtifactIdSchema,
  type: ArtifactTypeSchema,
  label: z.string().max(MAX_LABEL_CHARS).optional(),
  tool: ToolInfoSchema.optional(),
  /** This session's summary and MIME type of the content (per-session metadata, never another session's). */
  summary: z.string().max(MAX_SUMMARY_CHARS).optional(),
  mime: z.string().max(200).optional(),
  created_at: z.string().datetime({ offset: true }),
  /** ISO time after which the reference is expired; absent = never. */
  expires_at: z.string().datetime({ offset: true }).optional(),
});
export type SessionReference = z.infer<typeof SessionReferenceSchema>;

/** Compact reference in the hot state's artifact index (docs/ARCHITECTURE.md §references). `artifact_id` may be a short ref. */
export const ArtifactIndexEntrySchema = z.object({
  artifact_id: z.union([ArtifactIdSchema, ShortRefSchema]),
  type: ArtifactTypeSchema,
  label: z.string().max(MAX_LABEL_CHARS).optional(),
  version: z.string().max(64).optional(),
  summary: z.string().max(MAX_SUMMARY_CHARS).optional(),
});
export type ArtifactIndexEntry = z.infer<typeof ArtifactIndexEntrySchema>;

/**
 * The reference a transcript keeps instead of a payload (docs/ARCHITECTURE.md §memory `details.artifactRef`),
 * and what a model sees for an externalized tool result (the docs/ARCHITECTURE.md §oversized model hint).
 */
export const ArtifactRefSchema = z.object({
  artifact_id: ArtifactIdSchema,
  handle: z.string(),
  short_ref: ShortRefSchema,
  size_bytes: z.number().int().nonnegative(),
  mime: z.string().optional(),
  summary: z.string().max(MAX_SUMMARY_CHARS).optional(),
  /** Encoding of the original payload inside the transcript: a JSON string, or raw text. */
  payload: z.enum(["text", "json"]).default("text"),
});
export type ArtifactRef = z.infer<typeof ArtifactRefSchema>;
