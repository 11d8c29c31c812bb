import { applySelector } from "@artifact-refs/resolve";
import { countTokens, DEFAULT_BUDGET } from "@artifact-refs/budget";
import type { ArtifactStore } from "@artifact-refs/store";
import { chatContextFromExecutions, contextViewOf } from "./context.js";
import { StoreExecutionLog, memoryMetrics } from "./memory.js";
import type { ServerKit } from "./types.js";

export type * from "./types.js";

/** The kit the server runs on, from the lower packages; `overrides` replaces any part. */
export function createKit(store: ArtifactStore, overrides: Partial<ServerKit> = {}): ServerKit {
  const executions = overrides.executions ?? new StoreExecutionLog(store);
  return {
    executions,
    select: (text, selector) => applySelector(text, selector),
    chatContext: (session, message, records) => chatContextFromExecutions(executions, session, message, records),
    contextView: contextViewOf,
    countTokens: (text) => countTokens(text),
    promptBudget: DEFAULT_BUDGET.maxPromptTokens,
    metrics: memoryMetrics(),
    hotState: async () => undefined,
    ...overrides,
  };
}
