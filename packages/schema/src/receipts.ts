import { z } from "zod";
import { ArtifactRecordSchema, ArtifactTypeSchema, SessionReferenceSchema } from "./artifact.js";
import { ERROR_CODES } from "./errors.js";
import { ArtifactIdSchema, ShortRefSchema } from "./ids.js";
import { SelectorSchema } from "./selector.js";

/** Receipt schema names: `artifact-refs.<command>.v1` (docs/ARCHITECTURE.md §sidecar style). */
export const receiptName = <T extends string>(command: T) => `artifact-refs.${command}.v1` as const;

/** What a bounded selection returned, what it left out and how to get more. */
export const SelectionSchema = z.object({
  selector: SelectorSchema,
  text: z.string(),
  /** Characters in `text`. Never above the selector's cap. */
  chars: z.number().int().nonnegative(),
  total_chars: z.number().int().nonnegative(),
  total_lines: z.number().int().nonnegative(),
  truncated: z.boolean(),
  /** Human-readable description of what was left out ("lines 41-9960 (612,004 chars)"). */
  omitted: z.string().optional(),
  /** The exact selector that returns the next part, when there is more. */
  next: SelectorSchema.optional(),
  /** Selector-specific counts: matches found, lines shown, JSONPath results. */
  stats: z.record(z.string(), z.number()).optional(),
});
export type Selection = z.infer<typeof SelectionSchema>;

export const StashReceiptSchema = z.object({
  schema: z.literal(receiptName("stash")),
  handle: z.string(),
  artifact_id: ArtifactIdSchema,
  short_ref: ShortRefSchema,
  bytes: z.number().int().nonnegative(),
  created_at: z.string(),
  /** True when the same bytes were already stored. */
  deduped: z.boolean(),
  type: ArtifactTypeSchema,
  label: z.string().optional(),
  summary: z.string().optional(),
  session: z.string().optional(),
  expires_at: z.string().optional(),
});
export type StashReceipt = z.infer<typeof StashReceiptSchema>;

export const FetchReceiptSchema = SelectionSchema.extend({
  schema: z.literal(receiptName("fetch")),
  handle: z.string(),
  short_ref: ShortRefSchema,
});
export type FetchReceipt = z.infer<typeof FetchReceiptSchema>;

export const PeekReceiptSchema = z.object({
  schema: z.literal(receiptName("peek")),
  handle: z.string(),
  short_ref: ShortRefSchema,
  record: ArtifactRecordSchema,
  preview: z.string(),
  references: z.array(SessionReferenceSchema),
});
export type PeekReceipt = z.infer<typeof PeekReceiptSchema>;

export const ListItemSchema = z.object({
  handle: z.string(),
  short_ref: ShortRefSchema,
  artifact_id: ArtifactIdSchema,
  type: ArtifactTypeSchema,
  size_bytes: z.number().int().nonnegative(),
  created_at: z.string(),
  label: z.string().optional(),
  summary: z.string().optional(),
  session: z.string().optional(),
  expires_at: z.string().optional(),
});
export type ListItem = z.infer<typeof ListItemSchema>;

export const ListReceiptSchema = z.object({
  schema: z.literal(receiptName("list")),
  session: z.string().optional(),
  count: z.number().int().nonnegative(),
  items: z.array(ListItemSchema),
  /** Listing sessions instead of artifacts (`aref list` without --session): each session and its live references. */
  sessions: z.array(z.object({ session: z.string(), references: z.number().int().nonnegative() })).optional(),
});
export type ListReceipt = z.infer<typeof ListReceiptSchema>;

export const RmReceiptSchema = z.object({
  schema: z.literal(receiptName("rm")),
  artifact_id: ArtifactIdSchema,
  session: z.string().optional(),
  references_removed: z.number().int().nonnegative(),
  blob_removed: z.boolean(),
});
export type RmReceipt = z.infer<typeof RmReceiptSchema>;

export const GcReportSchema = z.object({
  blobs_scanned: z.number().int().nonnegative(),
  blobs_swept: z.number().int().nonnegative(),
  bytes_freed: z.number().int().nonnegative(),
  references_expired: z.number().int().nonnegative(),
  temp_files_removed: z.number().int().nonnegative(),
  /** Session records removed: past their retention, or of sessions whose last reference this run expired. */
  records_removed: z.number().int().nonnegative().optional(),
  dry_run: z.boolean(),
  /** Blobs swept (with `dry_run`, that would be): whole artifacts' blobs, chunks and manifests alike. */
  swept: z.array(ArtifactIdSchema),
  /**
   * Artifacts removed (with `dry_run`, that would be), by artifact id: a whole artifact with its blob, a chunked
   * one with its record (its manifest and chunks are in `swept`). Absent in reports written before it existed.
   */
  artifacts_swept: z.array(ArtifactIdSchema).optional(),
});
export type GcReport = z.infer<typeof GcReportSchema>;
export const GcReceiptSchema = GcReportSchema.extend({ schema: z.literal(receiptName("gc")) });
export type GcReceipt = z.infer<typeof GcReceiptSchema>;

export const VerifyProblemSchema = z.object({
  kind: z.enum([
    "integrity",
    "corrupt_metadata",
    "missing_blob",
    "missing_metadata",
    "temp_file",
    "corrupt_reference",
    "unreadable",
    "corrupt_record",
    "irregular_file",
  ]),
  key: z.string(),
  artifact_id: ArtifactIdSchema.optional(),
  message: z.string(),
  repaired: z.boolean(),
});
export type VerifyProblem = z.infer<typeof VerifyProblemSchema>;

export const VerifyReportSchema = z.object({
  blobs_checked: z.number().int().nonnegative(),
  ok: z.boolean(),
  problems: z.array(VerifyProblemSchema),
  repaired: z.number().int().nonnegative(),
});
export type VerifyReport = z.infer<typeof VerifyReportSchema>;
export const VerifyReceiptSchema = VerifyReportSchema.extend({ schema: z.literal(receiptName("verify")) });
export type VerifyReceipt = z.infer<typeof VerifyReceiptSchema>;

export const StoreStatsSchema = z.object({
  blobs: z.number().int().nonnegative(),
  /** Bytes of distinct content (each blob once). */
  bytes: z.number().int().nonnegative(),
  references: z.number().int().nonnegative(),
  sessions: z.number().int().nonnegative(),
  /** Bytes all references would take without dedupe. */
  logical_bytes: z.number().int().nonnegative(),
  /** logical_bytes / bytes (1 when nothing is shared; 0 when empty). */
  dedupe_ratio: z.number().nonnegative(),
});
export type StoreStats = z.infer<typeof StoreStatsSchema>;
export const StatsReceiptSchema = StoreStatsSchema.extend({ schema: z.literal(receiptName("stats")) });
export type StatsReceipt = z.infer<typeof StatsReceiptSchema>;

/** `aref resolve`: the executions (or a session's artifacts) the user's words refer to. */
export const ResolveReceiptSchema = z.object({
  schema: z.literal(receiptName("resolve")),
  candidates: z.array(z.object({ id: z.string(), score: z.number().min(0).max(1), reasons: z.array(z.string()) })),
  ambiguous: z.boolean(),
});
export type ResolveReceipt = z.infer<typeof ResolveReceiptSchema>;

export const ErrorReceiptSchema = z.object({
  schema: z.literal(receiptName("error")),
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    hint: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorReceipt = z.infer<typeof ErrorReceiptSchema>;
