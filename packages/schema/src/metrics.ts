import { z } from "zod";

/** One cut made to fit a budget: what went, and how to get it back. Never silent. */
export const CutSchema = z.object({
  what: z.string(),
  reason: z.string(),
  /** Tokens or chars removed, when known. */
  tokens: z.number().int().nonnegative().optional(),
  chars: z.number().int().nonnegative().optional(),
  /** How to get it back: a ref, a checkpoint, a selector. */
  recover: z.string().optional(),
});
export type Cut = z.infer<typeof CutSchema>;

export const BudgetViolationSchema = z.object({
  budget: z.string(),
  limit: z.number(),
  /** Null when the value could not be measured (fail closed). */
  actual: z.number().nullable(),
  message: z.string(),
});
export type BudgetViolation = z.infer<typeof BudgetViolationSchema>;

/** The per-turn prompt metrics event of docs/ARCHITECTURE.md §references, plus cuts and warnings. */
export const PromptMetricsSchema = z.object({
  type: z.literal("prompt_metrics"),
  ts: z.string().datetime({ offset: true }).optional(),
  session: z.string(),
  run: z.string().optional(),
  turn: z.number().int().nonnegative().optional(),
  hs_tokens: z.number().int().nonnegative(),
  hs_bytes: z.number().int().nonnegative(),
  hs_truncated: z.boolean(),
  artifacts: z.number().int().nonnegative(),
  artifact_types: z.array(z.string()),
  sys_chars: z.number().int().nonnegative(),
  user_chars: z.number().int().nonnegative(),
  est_tokens: z.number().int().nonnegative(),
  ref_files: z.number().int().nonnegative(),
  budget_violations: z.number().int().nonnegative(),
  budget_ok: z.boolean(),
  /** What the turn cut to fit, and how to get it back. */
  cuts: z.array(CutSchema).optional(),
  violations: z.array(BudgetViolationSchema).optional(),
  warnings: z.array(z.string()).optional(),
  /** Tokens the naive transcript would have cost this turn, when known. */
  naive_tokens: z.number().int().nonnegative().optional(),
});
export type PromptMetrics = z.infer<typeof PromptMetricsSchema>;
