import { z } from "zod";
import { ArtifactRefSchema } from "./artifact.js";

export const RoleSchema = z.enum(["system", "user", "assistant", "tool"]);
export type Role = z.infer<typeof RoleSchema>;

export const ToolCallSchema = z.object({
  id: z.string().nullable().optional(),
  name: z.string(),
  arguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/**
 * One line of a session transcript (JSONL). Tool results that were externalized keep
 * `content` empty and carry `details.artifactRef` instead of the payload (docs/ARCHITECTURE.md §memory).
 * Injected context is tagged (`details.injected`) and is never stashed again.
 */
export const TranscriptEntrySchema = z.object({
  type: z.literal("message").default("message"),
  id: z.string().optional(),
  ts: z.string().optional(),
  role: RoleSchema,
  content: z.string(),
  tool_name: z.string().optional(),
  tool_call_id: z.string().nullable().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  details: z
    .object({
      artifactRef: ArtifactRefSchema.optional(),
      injected: z.boolean().optional(),
      redactions: z.array(z.string()).optional(),
      checkpoint: z.boolean().optional(),
    })
    .passthrough()
    .optional(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntrySchema>;
