import { z } from "zod";
import { ArtifactIndexEntrySchema } from "./artifact.js";

/** The docs/ARCHITECTURE.md §references Hot State: a small JSON blob in every dispatcher prompt. JSON only, no prose. */
export const HotStateSchema = z
  .object({
    session_id: z.string().min(1),
    session_key: z.string().optional(),
    run_id: z.string().optional(),
    objective: z.string().optional(),
    current_plan_id: z.string().nullable().optional(),
    accepted_decisions: z.array(z.string()).optional(),
    open_questions: z.array(z.string()).optional(),
    constraints: z.array(z.string()).optional(),
    last_successful_step: z.string().optional(),
    risk_level: z.enum(["low", "medium", "high"]).optional(),
    artifact_index: z.array(ArtifactIndexEntrySchema).optional(),
  })
  .strict();
export type HotState = z.infer<typeof HotStateSchema>;
