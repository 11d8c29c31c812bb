import { randomUUID } from "node:crypto";
import { ExecutionRecordSchema, type ExecutionRecord, type PromptMetrics } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import type { ExecutionLog, NewExecution, ServerKit } from "./types.js";

/** Keeps each session's last `max` metrics events in memory (the server's recent-turns view). */
export function memoryMetrics(max = 500): ServerKit["metrics"] {
  const bySession = new Map<string, PromptMetrics[]>();
  return {
    async record(event) {
      const list = bySession.get(event.session) ?? [];
      list.push(event);
      if (list.length > max) list.splice(0, list.length - max);
      bySession.set(event.session, list);
    },
    async list(session) {
      return [...(bySession.get(session) ?? [])];
    },
  };
}

/**
 * Execution log whose results live in the ArtifactStore (referenced from the session, with
 * the tool's name and arguments) and whose records are kept in this process.
 */
export class StoreExecutionLog implements ExecutionLog {
  readonly #records = new Map<string, ExecutionRecord[]>();

  constructor(private readonly store: ArtifactStore) {}

  async record(input: NewExecution): Promise<ExecutionRecord> {
    const put = await this.store.put(input.result.length === 0 ? "(empty result)" : input.result, {
      session: input.session_id,
      type: "tool_output",
      producer: "executor",
      label: input.label ?? `${input.tool_name} ${JSON.stringify(input.tool_args)}`.slice(0, 300),
      tool: { name: input.tool_name, args: input.tool_args },
      ...(input.mime === undefined ? {} : { mime: input.mime }),
    });
    const record = ExecutionRecordSchema.parse({
      execution_id: `exec_${randomUUID()}`,
      session_id: input.session_id,
      timestamp: new Date().toISOString(),
      artifact_type: input.artifact_type,
      artifact_title: input.artifact_title,
      tool_name: input.tool_name,
      tool_args: input.tool_args,
      result_ref: put.id,
      ...(input.user_id === undefined ? {} : { user_id: input.user_id }),
      interaction_type: input.interaction_type,
      result_type: input.result_type,
      result_summary: (input.summary ?? `Executed ${input.tool_name}`).slice(0, 2_000),
      result_size: Buffer.byteLength(input.result),
      ...(input.label === undefined ? {} : { label: input.label }),
    });
    const list = this.#records.get(input.session_id) ?? [];
    list.push(record);
    this.#records.set(input.session_id, list);
    return record;
  }

  async list(session: string): Promise<ExecutionRecord[]> {
    return [...(this.#records.get(session) ?? [])];
  }

  async result(record: ExecutionRecord): Promise<string> {
    if (record.result_ref === undefined) return record.result_inline ?? "";
    return this.store.getText(record.result_ref);
  }

  async sessions(): Promise<string[]> {
    return [...this.#records.keys()];
  }
}
