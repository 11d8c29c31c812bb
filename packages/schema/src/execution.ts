import { z } from "zod";
import { ArtifactIdSchema } from "./ids.js";

export const ResultTypeSchema = z.enum(["success", "error", "partial"]);
export type ResultType = z.infer<typeof ResultTypeSchema>;

/**
 * The docs/ARCHITECTURE.md §executions ArtifactExecution: one tool execution and its result. The result itself
 * lives in the store; the record keeps its id (`result_ref`) and a summary.
 */
export const ExecutionRecordSchema = z.object({
  execution_id: z.string().min(1).max(200),
  session_id: z.string().min(1),
  timestamp: z.string().datetime({ offset: true }),
  artifact_type: z.string().default("toolform"),
  artifact_title: z.string().default(""),
  tool_name: z.string().min(1),
  tool_args: z.record(z.string(), z.unknown()).default({}),
  /** The stored result; absent when the result was small enough to keep inline. */
  result_ref: ArtifactIdSchema.optional(),
  result_inline: z.string().optional(),
  user_id: z.string().optional(),
  interaction_type: z.string().default("form_submit"),
  result_type: ResultTypeSchema,
  result_summary: z.string().max(2_000),
  result_size: z.number().int().nonnegative(),
  label: z.string().optional(),
  is_referenceable: z.boolean().default(true),
  /** Time-to-live in context, in conversation turns. */
  context_ttl: z.number().int().nonnegative().default(5),
});
export type ExecutionRecord = z.infer<typeof ExecutionRecordSchema>;
export type ExecutionRecordInput = z.input<typeof ExecutionRecordSchema>;

/** The execution format of the reference-resolution data set (shared/data/references). */
export const ResolutionExecutionSchema = z.object({
  id: z.string(),
  tool_name: z.string(),
  tool_args: z.record(z.string(), z.unknown()).default({}),
  label: z.string().optional(),
  summary: z.string().optional(),
  size_bytes: z.number().optional(),
  result_type: z.string().optional(),
  /** When it ran (ISO 8601), for clock phrases ("ten minutes ago", "at 14:05"); optional. */
  timestamp: z.string().optional(),
});
export type ResolutionExecution = z.infer<typeof ResolutionExecutionSchema>;
