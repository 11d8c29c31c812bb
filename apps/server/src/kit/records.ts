import { z } from "zod";
import { ExecutionRecordSchema, PromptMetricsSchema } from "@artifact-refs/schema";

/**
 * The session records the server keeps in the store (`store.records`), one kind each. Every
 * instance on the same store reads them, so any instance answers for any session, and a restart
 * loses nothing; the server keeps no copy of them between requests.
 */
export const EXECUTION_KIND = "execution";
export const CHAT_TURN_KIND = "chat-turn";
export const METRICS_KIND = "metrics";
export const RESOLUTION_KIND = "resolution";

/** An execution as the context kit tracks it: the record, the chat turn it was made in, its short ref. */
export const StoredExecutionSchema = z.object({
  record: ExecutionRecordSchema,
  turn: z.number().int().nonnegative(),
  short_ref: z.string().optional(),
});
export type StoredExecution = z.infer<typeof StoredExecutionSchema>;

/** One chat turn: what the user asked, what the server resolved and injected, what the model answered. */
export const ChatTurnSchema = z.object({
  turn: z.number().int().positive(),
  message_id: z.string(),
  message: z.string(),
  referenced_executions: z.array(z.string()),
  ambiguous: z.boolean(),
  context_chars: z.number().int().nonnegative(),
  response: z.string().nullable(),
  provider: z.string().nullable(),
});
export type ChatTurn = z.infer<typeof ChatTurnSchema>;

/**
 * The conversation's last resolution: the executions the last chat message meant (all candidates
 * when it was ambiguous). Follow-ups ("and the other one?", "both of them") resolve against it, on
 * any instance and after a restart.
 */
export const LastResolutionSchema = z.object({
  message_id: z.string().optional(),
  execution_ids: z.array(z.string()),
  ambiguous: z.boolean(),
});
export type LastResolution = z.infer<typeof LastResolutionSchema>;

export { PromptMetricsSchema as StoredMetricsSchema };
