import { ExecutionContext, type ContextConfigInput, type ReferenceResolver } from "@artifact-refs/context";
import type { ExecutionRecord } from "@artifact-refs/schema";
import type { ArtifactStore, RecordPage } from "@artifact-refs/store";
import {
  CHAT_TURN_KIND,
  ChatTurnSchema,
  EXECUTION_KIND,
  StoredExecutionSchema,
  type StoredExecution,
} from "./records.js";
import type { ExecutionLog, NewExecution } from "./types.js";

/** Pages scanned when looking an execution up by id beyond the session's context window. */
const FIND_MAX_PAGES = 100;

/**
 * Execution records in the store (`store.records`, kind "execution"), read back on every
 * request: the context kit's ExecutionContext of a session is rebuilt from its newest
 * `maxExecutions` records and its last chat turn, used, and dropped. Nothing about a session
 * lives only in this process, so any server instance on the same store answers for it and a
 * restart loses nothing. Results go through the context kit's externalizer (redacted; large ones
 * stored as references).
 */
export class SessionExecutions implements ExecutionLog {
  readonly #store: ArtifactStore;
  readonly #config: ContextConfigInput | undefined;
  readonly #resolver: ReferenceResolver;
  readonly #maxExecutions: number;

  constructor(store: ArtifactStore, config: ContextConfigInput | undefined, resolver: ReferenceResolver) {
    this.#store = store;
    this.#config = config;
    this.#resolver = resolver;
    // The context keeps at most this many; reading more would only be dropped again.
    this.#maxExecutions = new ExecutionContext({
      session: "probe",
      store,
      ...(config ? { config } : {}),
    }).config.executions.maxExecutions;
  }

  /** The session's context as stored: its newest executions and its current chat turn. */
  async context(session: string): Promise<ExecutionContext> {
    const [executions, turn] = await Promise.all([
      this.#page(session, Math.min(this.#maxExecutions, 1_000)),
      this.turn(session),
    ]);
    return ExecutionContext.fromJSON(
      { session_id: session, turn, executions: executions.records.map((r) => r.body) },
      { store: this.#store, ...(this.#config ? { config: this.#config } : {}), resolveReferences: this.#resolver },
    );
  }

  /** The session's last chat turn number (0 before the first). */
  async turn(session: string): Promise<number> {
    return (await this.#store.records.latest(session, CHAT_TURN_KIND, ChatTurnSchema))?.body.turn ?? 0;
  }

  /** Stores executions restored from `ExecutionContext.toJSON()` (a finished run) unless already stored. */
  async restore(state: unknown): Promise<void> {
    const context = ExecutionContext.fromJSON(state, {
      store: this.#store,
      ...(this.#config ? { config: this.#config } : {}),
      resolveReferences: this.#resolver,
    });
    const saved = context.toJSON();
    const stored = new Set((await this.#page(saved.session_id, 1_000)).records.map((r) => r.body.record.execution_id));
    for (const execution of saved.executions) {
      if (!stored.has(execution.record.execution_id))
        await this.#store.records.append(saved.session_id, EXECUTION_KIND, execution);
    }
  }

  async record(input: NewExecution): Promise<ExecutionRecord> {
    const context = await this.context(input.session_id);
    const record = await context.record({
      tool_name: input.tool_name,
      tool_args: input.tool_args,
      result: input.result,
      result_type: input.result_type,
      interaction_type: input.interaction_type,
      artifact_type: input.artifact_type,
      artifact_title: input.artifact_title,
      ...(input.user_id === undefined ? {} : { user_id: input.user_id }),
      ...(input.label === undefined ? {} : { label: input.label }),
      ...(input.summary === undefined ? {} : { summary: input.summary }),
      ...(input.mime === undefined ? {} : { mime: input.mime }),
    });
    const tracked = context.toJSON().executions.find((e) => e.record.execution_id === record.execution_id)!;
    await this.#store.records.append(input.session_id, EXECUTION_KIND, tracked satisfies StoredExecution);
    return record;
  }

  async list(session: string, options: { limit?: number; before?: string } = {}): Promise<ExecutionRecord[]> {
    return (await this.#page(session, options.limit ?? 1_000, options.before)).records.map((r) => r.body.record);
  }

  /** A page of the session's executions (newest `limit` before the cursor, oldest first) and the cursor of the next older page. */
  async page(
    session: string,
    options: { limit?: number; before?: string } = {},
  ): Promise<{ executions: ExecutionRecord[]; before?: string; skipped: number }> {
    const page = await this.#page(session, options.limit ?? 100, options.before);
    return {
      executions: page.records.map((r) => r.body.record),
      ...(page.before ? { before: page.before } : {}),
      skipped: page.skipped.length,
    };
  }

  /** One execution by id, newest pages first; undefined when the session has none with that id. */
  async find(session: string, executionId: string): Promise<ExecutionRecord | undefined> {
    let before: string | undefined;
    for (let i = 0; i < FIND_MAX_PAGES; i++) {
      const page = await this.#page(session, 1_000, before);
      const found = page.records.find((r) => r.body.record.execution_id === executionId);
      if (found) return found.body.record;
      if (!page.before) return undefined;
      before = page.before;
    }
    return undefined;
  }

  async result(record: ExecutionRecord): Promise<string> {
    if (record.result_ref === undefined) return record.result_inline ?? "";
    return this.#store.getText(record.result_ref);
  }

  async sessions(): Promise<string[]> {
    return this.#store.records.sessions();
  }

  #page(session: string, limit: number, before?: string): Promise<RecordPage<StoredExecution>> {
    return this.#store.records.page(session, EXECUTION_KIND, {
      limit,
      body: StoredExecutionSchema,
      ...(before ? { before } : {}),
    });
  }
}
