import {
  configureInjectedKey,
  ExecutionContext,
  useStoreInjectedKey,
  type ContextConfigInput,
} from "@artifact-refs/context";
import { DEFAULT_BUDGET } from "@artifact-refs/budget";
import { sessionHotState } from "@artifact-refs/hot-state";
import { applySelector, resolveReferences } from "@artifact-refs/resolve";
import { hasErrorCode, PromptMetricsSchema, type PromptMetrics } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { SessionExecutions } from "./executions.js";
import {
  CHAT_TURN_KIND,
  ChatTurnSchema,
  LastResolutionSchema,
  METRICS_KIND,
  RESOLUTION_KIND,
  type LastResolution,
} from "./records.js";
import { resolutionInput, sessionReferences } from "./stashes.js";
import type { ServerKit } from "./types.js";

export type * from "./types.js";
export { SessionExecutions } from "./executions.js";
export {
  CHAT_TURN_KIND,
  EXECUTION_KIND,
  METRICS_KIND,
  RESOLUTION_KIND,
  ChatTurnSchema,
  LastResolutionSchema,
  StoredExecutionSchema,
  type ChatTurn,
  type LastResolution,
  type StoredExecution,
} from "./records.js";

/** Metrics events shown per session (the newest). */
export const METRICS_PAGE = 500;

/** Each session's prompt metrics events as records in the store (kind "metrics"). */
export function storeMetrics(store: ArtifactStore): ServerKit["metrics"] {
  return {
    async record(event: PromptMetrics) {
      await store.records.append(event.session, METRICS_KIND, event);
    },
    async list(session, options = {}) {
      const page = await store.records.page(session, METRICS_KIND, {
        limit: options.limit ?? METRICS_PAGE,
        body: PromptMetricsSchema,
        ...(options.before ? { before: options.before } : {}),
      });
      return page.records.map((r) => r.body);
    },
  };
}

/** Each session's chat turns as records in the store (kind "chat-turn"). */
export function storeChatTurns(store: ArtifactStore): ServerKit["chatTurns"] {
  return {
    async record(session, turn) {
      await store.records.append(session, CHAT_TURN_KIND, turn);
    },
    async page(session, options = {}) {
      const page = await store.records.page(session, CHAT_TURN_KIND, {
        limit: options.limit ?? 100,
        body: ChatTurnSchema,
        ...(options.before ? { before: options.before } : {}),
      });
      return {
        turns: page.records.map((r) => r.body),
        ...(page.before ? { before: page.before } : {}),
        skipped: page.skipped.length,
      };
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

/**
 * The kit the server runs on, from the lower packages; `overrides` replaces any part. Executions,
 * chat turns and metrics are session records in the store: nothing is kept in this process.
 * A preload is validated now and written to the store (once: a restart does not duplicate it)
 * before the first request is answered.
 */
export function createKit(
  store: ArtifactStore,
  overrides: Partial<ServerKit> = {},
  contextConfig?: ContextConfigInput,
  preload: SessionPreload = {},
): ServerKit {
  const sessions = new SessionExecutions(store, contextConfig, (query, executions) =>
    resolveReferences(query, executions),
  );
  for (const state of preload.executions ?? []) ExecutionContext.fromJSON(state, { store }); // validate now: a bad preload fails startup
  const metricsPreload = (preload.metrics ?? []).map((m) => PromptMetricsSchema.parse(m));
  const baseMetrics = storeMetrics(store);
  // Injected-context tags verify on every instance: the key comes from AREF_INJECTED_KEY or else
  // from the secret the store holds (created once, read by every instance on the store).
  const configuredKey = process.env.AREF_INJECTED_KEY;
  if (configuredKey) configureInjectedKey(configuredKey); // a bad key fails startup
  let ready: Promise<void> | undefined = (async () => {
    await useStoreInjectedKey(store);
    for (const state of preload.executions ?? []) await sessions.restore(state);
    const bySession = new Map<string, PromptMetrics[]>();
    for (const event of metricsPreload) bySession.set(event.session, [...(bySession.get(event.session) ?? []), event]);
    for (const [session, events] of bySession) {
      const stored = new Set((await baseMetrics.list(session, { limit: 1_000 })).map((e) => JSON.stringify(e)));
      for (const event of events) if (!stored.has(JSON.stringify(event))) await baseMetrics.record(event);
    }
  })();
  ready.catch(() => {}); // surfaced by the first request that waits on it
  const preloaded = async () => {
    if (ready) {
      await ready;
      ready = undefined;
    }
  };
  const withPreload =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await preloaded();
      return fn(...args);
    };
  const executions = overrides.executions ?? {
    record: withPreload((input) => sessions.record(input)),
    list: withPreload((session, options) => sessions.list(session, options)),
    page: withPreload((session, options) => sessions.page(session, options)),
    find: withPreload((session, id) => sessions.find(session, id)),
    result: (record) => sessions.result(record),
    sessions: withPreload(() => sessions.sessions()),
  };
  return {
    executions,
    select: (text, selector) => applySelector(text, selector, { jsonPathWorkBudget: SERVER_JSONPATH_WORK_BUDGET }),
    chatContext: withPreload(async (session, message) => {
      // The conversation's last resolution is a session record (kind "resolution"): follow-ups
      // ("the other one", "both of them") resolve against it on any instance and after a restart.
      // Direct stashes (CLI, API, MCP, adapters) count too: the session's references no execution covers.
      const [context, last, references] = await Promise.all([
        sessions.context(session),
        store.records.latest(session, RESOLUTION_KIND, LastResolutionSchema),
        sessionReferences(store, session),
      ]);
      const turn = context.nextTurn();
      const input = resolutionInput(context, references);
      if (input.length === 0) return { turn, message: null, referenced: [], candidates: [], ambiguous: false };
      const built =
        context.executions.length === 0
          ? undefined
          : await context.buildContextMessage({ query: message, force: true });
      const known = new Set(input.map((e) => e.id));
      const previous = last?.body.execution_ids.filter((id) => known.has(id));
      const resolution = resolveReferences(message, input, previous?.length ? { previous } : {});
      if (resolution.candidates.length > 0)
        await store.records.append(session, RESOLUTION_KIND, {
          execution_ids: resolution.ambiguous
            ? resolution.candidates.filter((c) => c.score >= 1).map((c) => c.id)
            : strongest(resolution.candidates),
          ambiguous: resolution.ambiguous,
        } satisfies LastResolution);
      const referenced = strongest(resolution.candidates).filter((id) => built?.execution_ids.includes(id) ?? false);
      return {
        turn,
        message: built ? { role: "system", content: built.content } : null,
        // The executions the message means: the best candidate and those scored as well (ties at the top);
        // weaker candidates are still listed in `candidates` with their reasons.
        referenced,
        referencedRecords: referenced.map((id) => context.getExecution(id)).filter((e) => e !== undefined),
        candidates: resolution.candidates,
        ambiguous: resolution.ambiguous,
      };
    }),
    contextView: withPreload(async (session) => (await sessions.context(session)).contextShape()),
    budget: DEFAULT_BUDGET,
    metrics: { record: withPreload(baseMetrics.record), list: withPreload(baseMetrics.list) },
    chatTurns: storeChatTurns(store),
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
