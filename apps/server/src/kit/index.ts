import type { ContextConfigInput } from "@artifact-refs/context";
import { DEFAULT_BUDGET, memorySink } from "@artifact-refs/budget";
import { sessionHotState } from "@artifact-refs/hot-state";
import { applySelector, resolveReferences } from "@artifact-refs/resolve";
import { hasErrorCode, type PromptMetrics } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { SessionExecutions } from "./executions.js";
import type { ServerKit } from "./types.js";

export type * from "./types.js";
export { SessionExecutions } from "./executions.js";

/** Keeps each session's last `max` metrics events in memory (budget's memory sink per session). */
export function memoryMetrics(max = 500, initial: readonly PromptMetrics[] = []): ServerKit["metrics"] {
  const sinks = new Map<string, ReturnType<typeof memorySink>>();
  for (const event of initial) {
    let sink = sinks.get(event.session);
    if (!sink) sinks.set(event.session, (sink = memorySink({ max })));
    void sink.write(event);
  }
  return {
    async record(event: PromptMetrics) {
      let sink = sinks.get(event.session);
      if (!sink) sinks.set(event.session, (sink = memorySink({ max })));
      await sink.write(event);
    },
    async list(session) {
      return [...(sinks.get(session)?.events ?? [])];
    },
  };
}

/** Sessions to serve from the start: saved execution contexts and their metrics events (e.g. a finished agent run). */
export interface SessionPreload {
  /** `ExecutionContext.toJSON()` of each session. */
  executions?: unknown[];
  metrics?: PromptMetrics[];
}

/** Share of the best score a candidate needs to count as referenced (a tie at the top). */
export const REFERENCED_SHARE = 0.995;

function strongest(candidates: ReadonlyArray<{ id: string; score: number }>): string[] {
  const best = candidates[0]?.score ?? 0;
  return best <= 0 ? [] : candidates.filter((c) => c.score >= best * REFERENCED_SHARE).map((c) => c.id);
}

/**
 * JSONPath work budget per selection on the server (about 20 ms of event-loop time; the library
 * default, 5e7, is about half a second): one caller must not stall the others.
 */
export const SERVER_JSONPATH_WORK_BUDGET = 2_000_000;

/** The kit the server runs on, from the lower packages; `overrides` replaces any part. */
export function createKit(store: ArtifactStore, overrides: Partial<ServerKit> = {}, contextConfig?: ContextConfigInput, preload: SessionPreload = {}): ServerKit {
  const sessions = new SessionExecutions(store, contextConfig, (query, executions) => resolveReferences(query, executions));
  for (const state of preload.executions ?? []) sessions.restore(state);
  const executions = overrides.executions ?? sessions;
  return {
    executions,
    select: (text, selector) => applySelector(text, selector, { jsonPathWorkBudget: SERVER_JSONPATH_WORK_BUDGET }),
    async chatContext(session, message) {
      const context = sessions.context(session, false);
      if (context.executions.length === 0) return { message: null, referenced: [], candidates: [], ambiguous: false };
      context.nextTurn();
      const built = await context.buildContextMessage({ query: message, force: true });
      const resolution = resolveReferences(message, context.resolutionExecutions());
      return {
        message: built ? { role: "system", content: built.content } : null,
        // The executions the message means: the best candidate and those scored as well (ties at the top);
        // weaker candidates are still listed in `candidates` with their reasons.
        referenced: strongest(resolution.candidates).filter((id) => built?.execution_ids.includes(id) ?? false),
        candidates: resolution.candidates.map((c) => ({ execution_id: c.id, score: c.score, reasons: c.reasons })),
        ambiguous: resolution.ambiguous,
      };
    },
    async contextView(session) {
      return sessions.context(session, false).contextShape();
    },
    budget: DEFAULT_BUDGET,
    metrics: memoryMetrics(500, preload.metrics),
    async hotState(session) {
      try {
        const built = await sessionHotState(store, session);
        return { state: built.state, tokens: built.tokens, bytes: built.bytes, truncated: built.truncated };
      } catch (error) {
        if (hasErrorCode(error, "UNKNOWN_SESSION")) return undefined;
        throw error;
      }
    },
    ...overrides,
  };
}
