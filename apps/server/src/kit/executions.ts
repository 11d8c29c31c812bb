import { ExecutionContext, type ContextConfigInput, type ReferenceResolver } from "@artifact-refs/context";
import type { ExecutionRecord } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import type { ExecutionLog, NewExecution } from "./types.js";

/**
 * One @artifact-refs/context ExecutionContext per session, created on first use. Results go
 * through the context kit's externalizer (redacted; large ones stored as references).
 */
export class SessionExecutions implements ExecutionLog {
  readonly #contexts = new Map<string, ExecutionContext>();

  constructor(
    private readonly store: ArtifactStore,
    private readonly config: ContextConfigInput | undefined,
    private readonly resolver: ReferenceResolver,
    /** Sessions kept in memory; the least recently used one is dropped past it (its results stay in the store). */
    readonly maxSessions = 10_000,
  ) {}

  /** The session's context; with `create: false`, a fresh empty one that is not kept. */
  context(session: string, create = true): ExecutionContext {
    const found = this.#contexts.get(session);
    if (found) {
      this.#contexts.delete(session);
      this.#contexts.set(session, found); // most recently used last
      return found;
    }
    const context = new ExecutionContext({ session, store: this.store, ...(this.config ? { config: this.config } : {}), resolveReferences: this.resolver });
    if (create) {
      this.#contexts.set(session, context);
      if (this.#contexts.size > this.maxSessions) this.#contexts.delete(this.#contexts.keys().next().value!);
    }
    return context;
  }

  /** Serves an existing session context (e.g. restored with ExecutionContext.fromJSON from a finished agent run). */
  adopt(context: ExecutionContext): void {
    this.#contexts.delete(context.session);
    this.#contexts.set(context.session, context);
    if (this.#contexts.size > this.maxSessions) this.#contexts.delete(this.#contexts.keys().next().value!);
  }

  /** Restores a saved session (ExecutionContext.toJSON()) over this store. */
  restore(state: unknown): ExecutionContext {
    const context = ExecutionContext.fromJSON(state, { store: this.store, ...(this.config ? { config: this.config } : {}), resolveReferences: this.resolver });
    this.adopt(context);
    return context;
  }

  async record(input: NewExecution): Promise<ExecutionRecord> {
    return this.context(input.session_id).record({
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
  }

  async list(session: string): Promise<ExecutionRecord[]> {
    return this.#contexts.get(session)?.executions ?? [];
  }

  async result(record: ExecutionRecord): Promise<string> {
    return this.context(record.session_id, false).resultText(record);
  }

  async sessions(): Promise<string[]> {
    return [...this.#contexts.keys()];
  }
}
