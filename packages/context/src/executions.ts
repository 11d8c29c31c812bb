import { randomUUID } from "node:crypto";
import {
  ArefError,
  ExecutionRecordSchema,
  formatIssues,
  parseSessionId,
  type ExecutionRecord,
  type ResultType,
} from "@artifact-refs/schema";
import {
  recall as recallItems,
  resolveReferences as resolveWithResolution,
  type Candidate,
  type ExecutionLike,
} from "@artifact-refs/resolve";
import type { ArtifactStore } from "@artifact-refs/store";
import { z } from "zod";
import {
  parseContextConfig,
  withSessionOverrides,
  type ContextConfig,
  type ContextConfigInput,
  type SessionOverrides,
} from "./config.js";
import { Externalizer } from "./externalizer.js";
import { tagInjected } from "./injected.js";
import { ARTIFACTS_GET_TOOL_NAME } from "./model-hint.js";
import { utf8Length } from "./payload.js";

/** One ranked match of a user's words to an execution: the resolve package's `Candidate`. */
export type ReferenceCandidate = Candidate;

/** Resolves a user's words to executions: temporal, content, tool, relevance. */
export type ReferenceResolver = (
  query: string,
  executions: ExecutionLike[],
) => { candidates: ReferenceCandidate[]; ambiguous?: boolean };

export interface RecordExecutionInput {
  tool_name: string;
  tool_args?: Record<string, unknown>;
  /** The tool's result (text or a JSON value); stored as a reference when large. */
  result: unknown;
  result_type?: ResultType;
  interaction_type?: string;
  artifact_type?: string;
  artifact_title?: string;
  user_id?: string;
  label?: string;
  /** Summary to keep instead of the computed one. */
  summary?: string;
  /** TTL in conversation turns (default: config.executions.ttlTurns). */
  ttlTurns?: number;
  execution_id?: string;
  mime?: string;
}

/** The docs/ARCHITECTURE.md §executions GET /api/artifacts/context/:session_id answer. */
export const ExecutionContextShapeSchema = z.object({
  session_id: z.string(),
  turn: z.number().int().nonnegative(),
  auto_inject: z.boolean(),
  executions: z.array(
    z.object({
      execution_id: z.string(),
      timestamp: z.string(),
      artifact_title: z.string(),
      tool_name: z.string(),
      tool_args: z.record(z.string(), z.unknown()),
      summary: z.string(),
      result_type: z.string(),
      interaction_type: z.string(),
      result_size: z.number(),
      result_ref: z.string().optional(),
      short_ref: z.string().optional(),
      turn: z.number().int().nonnegative(),
      in_context: z.boolean(),
    }),
  ),
  recent_files: z.array(z.string()),
  recent_tools: z.array(z.string()),
});
export type ExecutionContextShape = z.infer<typeof ExecutionContextShapeSchema>;

/** The serialized state of an ExecutionContext (persist it to resume a session). */
export const ExecutionStateSchema = z.object({
  session_id: z.string(),
  turn: z.number().int().nonnegative(),
  overrides: z.record(z.string(), z.unknown()).optional(),
  executions: z.array(
    z.object({ record: ExecutionRecordSchema, turn: z.number().int().nonnegative(), short_ref: z.string().optional() }),
  ),
});
export type ExecutionState = z.infer<typeof ExecutionStateSchema>;

export interface ContextMessage {
  role: "system";
  /** Tagged as injected, so it is never stashed again. */
  content: string;
  /** Executions included, in order. */
  execution_ids: string[];
  /** Executions included because the query referred to them, with the resolver's reasons. */
  referenced: ReferenceCandidate[];
}

export interface ExecutionContextOptions {
  session: string;
  store: ArtifactStore;
  config?: ContextConfig | ContextConfigInput;
  /** Per-session overrides (auto-inject off, more items, another summarize threshold). */
  overrides?: SessionOverrides;
  /** Stores the results (default: an Externalizer over the same store and config). */
  externalizer?: Externalizer;
  /** Resolves a query to executions for the context message. Default: @artifact-refs/resolve's resolveReferences. */
  resolveReferences?: ReferenceResolver;
  now?: () => Date;
}

function fmtKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** The docs/ARCHITECTURE.md §executions tool-specific summaries ("Loaded README.md (2.5 KB)", "Listed 15 items in src", …). */
export function summarizeExecution(
  toolName: string,
  args: Record<string, unknown>,
  resultText: string,
  resultType: ResultType = "success",
): string {
  const path = typeof args.path === "string" ? args.path : typeof args.file === "string" ? args.file : undefined;
  const bytes = utf8Length(resultText);
  let summary: string;
  if (/read_file|cat|open/.test(toolName)) summary = `Loaded ${path ?? "a file"} (${fmtKb(bytes)})`;
  else if (/write_file|patch_file|edit/.test(toolName)) summary = `Wrote to ${path ?? "a file"}`;
  else if (/list_files|list_directories|(^|[._])ls$/.test(toolName)) {
    const count = resultText.split("\n").filter((l) => l.trim() !== "").length;
    summary = `Listed ${count} items in ${path ?? "."}`;
  } else if (/execute|bash|shell|python|run/.test(toolName)) {
    const cmd = typeof args.command === "string" ? args.command : typeof args.cmd === "string" ? args.cmd : undefined;
    summary = cmd
      ? `Executed ${cmd.length > 80 ? `${cmd.slice(0, 79)}…` : cmd} (${fmtKb(bytes)} of output)`
      : `Executed code/command (${fmtKb(bytes)} of output)`;
  } else summary = `Executed ${toolName} (${fmtKb(bytes)})`;
  return resultType === "success" ? summary : `${summary} [${resultType}]`;
}

function timeAgo(from: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  if (s < 60) return "just now";
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? "" : "s"} ago`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} hour${h === 1 ? "" : "s"} ago`;
  const d = Math.floor(h / 24);
  return `${d} day${d === 1 ? "" : "s"} ago`;
}

interface Tracked {
  record: ExecutionRecord;
  turn: number;
  short_ref?: string;
}

/**
 * The docs/ARCHITECTURE.md §executions artifact context for one session: records tool executions (result as a
 * reference), tracks their TTL in turns, builds the context message (recent executions
 * plus those the user's words refer to) and the shape the HTTP API serves.
 */
export class ExecutionContext {
  readonly session: string;
  readonly store: ArtifactStore;
  readonly externalizer: Externalizer;
  #baseConfig: ContextConfig;
  #overrides: SessionOverrides | undefined;
  #executions: Tracked[] = [];
  #turn = 0;
  readonly #resolve: ReferenceResolver;
  readonly #now: () => Date;

  constructor(options: ExecutionContextOptions) {
    this.session = parseSessionId(options.session);
    this.store = options.store;
    this.#baseConfig = parseContextConfig(options.config ?? {});
    this.#overrides = options.overrides;
    withSessionOverrides(this.#baseConfig, this.#overrides); // validate now
    this.externalizer = options.externalizer ?? new Externalizer({ store: options.store, config: this.#baseConfig });
    this.#resolve = options.resolveReferences ?? ((query, executions) => resolveWithResolution(query, executions));
    this.#now = options.now ?? (() => new Date());
  }

  /** The config with this session's overrides applied. */
  get config(): ContextConfig {
    return withSessionOverrides(this.#baseConfig, this.#overrides);
  }

  /** Changes this session's overrides (validated; CONFIG_INVALID names the field). */
  setOverrides(overrides: SessionOverrides | undefined): void {
    withSessionOverrides(this.#baseConfig, overrides);
    this.#overrides = overrides;
  }

  get turn(): number {
    return this.#turn;
  }

  /** Starts the next conversation turn (TTLs are counted in turns). */
  nextTurn(): number {
    return ++this.#turn;
  }

  /** Every recorded execution, oldest first. */
  get executions(): ExecutionRecord[] {
    return this.#executions.map((t) => t.record);
  }

  get lastExecution(): ExecutionRecord | undefined {
    return this.#executions.at(-1)?.record;
  }

  getExecution(id: string): ExecutionRecord | undefined {
    return this.#executions.find((t) => t.record.execution_id === id)?.record;
  }

  /** Executions still within their TTL (in turns), newest first. */
  live(): ExecutionRecord[] {
    return this.#executions
      .filter((t) => t.record.is_referenceable && this.#turn - t.turn <= t.record.context_ttl)
      .map((t) => t.record)
      .reverse();
  }

  /** Recently accessed file paths (from `path` arguments), newest first, at most 10. */
  get recentFiles(): string[] {
    const files: string[] = [];
    for (const t of [...this.#executions].reverse()) {
      const path = t.record.tool_args.path;
      if (typeof path === "string" && !files.includes(path)) files.push(path);
    }
    return files.slice(0, 10);
  }

  /** Recently used tools, newest first, at most 10. */
  get recentTools(): string[] {
    const tools: string[] = [];
    for (const t of [...this.#executions].reverse())
      if (!tools.includes(t.record.tool_name)) tools.push(t.record.tool_name);
    return tools.slice(0, 10);
  }

  /** Records one execution; its result goes through the externalizer (redacted; large → a reference). */
  async record(input: RecordExecutionInput): Promise<ExecutionRecord> {
    const cfg = this.config.executions;
    // Arguments are persisted in the record: redact them like results.
    const args = this.externalizer.redactValue(input.tool_args ?? {}).value as Record<string, unknown>;
    const result = await this.externalizer.externalize({
      session: this.session,
      tool: input.tool_name,
      result: input.result,
      args,
      ...(input.label ? { label: input.label } : {}),
      ...(input.mime ? { mime: input.mime } : {}),
    });
    const resultType: ResultType = result.action === "fallback" ? "partial" : (input.result_type ?? "success");
    const text = result.action === "inline" ? result.content : undefined;
    const parsed = ExecutionRecordSchema.safeParse({
      execution_id: input.execution_id ?? `exec_${randomUUID()}`,
      session_id: this.session,
      timestamp: this.#now().toISOString(),
      ...(input.artifact_type ? { artifact_type: input.artifact_type } : {}),
      artifact_title: input.artifact_title ?? input.label ?? input.tool_name,
      tool_name: input.tool_name,
      tool_args: args,
      ...(result.artifactRef
        ? { result_ref: result.artifactRef.artifact_id }
        : { result_inline: text ?? result.content }),
      ...(input.user_id ? { user_id: input.user_id } : {}),
      ...(input.interaction_type ? { interaction_type: input.interaction_type } : {}),
      result_type: resultType,
      result_summary: (
        input.summary ??
        summarizeExecution(
          input.tool_name,
          args,
          typeof input.result === "string" ? input.result : JSON.stringify(input.result ?? ""),
          resultType,
        )
      ).slice(0, 2_000),
      result_size: result.sizeBytes,
      ...(input.label ? { label: input.label } : {}),
      context_ttl: input.ttlTurns ?? cfg.ttlTurns,
    });
    if (!parsed.success) throw new ArefError("INVALID_INPUT", `invalid execution: ${formatIssues(parsed.error)}`);
    this.#executions.push({
      record: parsed.data,
      turn: this.#turn,
      ...(result.artifactRef ? { short_ref: result.artifactRef.short_ref } : {}),
    });
    if (this.#executions.length > cfg.maxExecutions)
      this.#executions.splice(0, this.#executions.length - cfg.maxExecutions);
    return parsed.data;
  }

  /** The result text of an execution (from the store when it is a reference). */
  async resultText(execution: ExecutionRecord): Promise<string> {
    if (execution.result_ref === undefined) return execution.result_inline ?? "";
    return this.store.getText(execution.result_ref);
  }

  /** Executions in the Resolution package's input format. */
  resolutionExecutions(): ExecutionLike[] {
    return this.#executions.map(({ record }, order) => ({
      id: record.execution_id,
      order,
      tool_name: record.tool_name,
      tool_args: record.tool_args,
      ...(record.label ? { label: record.label } : {}),
      summary: record.result_summary,
      size_bytes: record.result_size,
      result_type: record.result_type,
      // Clock phrases ("a few minutes ago") read the timestamp; a result kept in the store is a stash
      // ("what I just saved" may mean it).
      timestamp: record.timestamp,
      ...(record.result_ref !== undefined ? { result_ref: record.result_ref } : {}),
    }));
  }

  /**
   * The docs/ARCHITECTURE.md §executions context message: the most recent live executions plus those the user's
   * query refers to. Results up to the summarize threshold are included whole; explicitly
   * referenced ones up to maxResultSize; anything larger as summary + reference + how to
   * fetch it. Undefined when auto-inject is off (unless `force`) or nothing is live.
   */
  async buildContextMessage(options: { query?: string; force?: boolean } = {}): Promise<ContextMessage | undefined> {
    const cfg = this.config.executions;
    if (!cfg.autoInject && options.force !== true) return undefined;
    const live = this.live();
    const chosen: ExecutionRecord[] = live.slice(0, cfg.recentLimit);
    const referenced: ReferenceCandidate[] = [];
    if (options.query) {
      const liveIds = new Set(live.map((e) => e.execution_id));
      const { candidates } = this.#resolve(
        options.query,
        this.resolutionExecutions().filter((e) => e.id !== undefined && liveIds.has(e.id)),
      );
      for (const c of candidates) {
        const execution = this.getExecution(c.id);
        if (execution === undefined) continue;
        referenced.push(c);
        if (!chosen.includes(execution)) chosen.push(execution);
      }
    }
    const included = chosen.slice(0, cfg.maxContextItems);
    if (included.length === 0) return undefined;
    const referencedIds = new Set(referenced.map((r) => r.id));
    const now = this.#now();
    const parts = ["**Artifact Context:**", "", "The user recently executed the following tools:"];
    for (const [i, e] of included.entries()) {
      const tracked = this.#executions.find((t) => t.record.execution_id === e.execution_id);
      parts.push("", `${i + 1}. **${e.artifact_title || e.tool_name}** (${timeAgo(new Date(e.timestamp), now)})`);
      parts.push(
        `   Tool: ${e.tool_name}`,
        `   Arguments: ${JSON.stringify(e.tool_args)}`,
        `   Summary: ${e.result_summary}`,
      );
      const limit = referencedIds.has(e.execution_id)
        ? Math.max(cfg.summarizeThreshold, cfg.maxResultSize)
        : cfg.summarizeThreshold;
      if (e.result_size <= limit) {
        let text: string;
        try {
          text = await this.resultText(e);
        } catch (error) {
          parts.push(`   Result: unavailable (${(error as Error).message})`);
          continue;
        }
        parts.push("   Result:", "   ```", text, "   ```");
      } else {
        const ref = tracked?.short_ref ?? (e.result_ref ? `art:${e.result_ref.slice(0, 12)}` : undefined);
        parts.push(
          `   Result: ${e.result_size} bytes, not included. ${ref ? `Read it with ${ARTIFACTS_GET_TOOL_NAME} {"ref":"${ref}","selector":{"mode":"grep","pattern":"…"}}` : ""}`.trimEnd(),
        );
      }
    }
    parts.push("", "You can reference these results when answering the user's questions.");
    return {
      role: "system",
      content: tagInjected(parts.join("\n")),
      execution_ids: included.map((e) => e.execution_id),
      referenced,
    };
  }

  /**
   * The docs/ARCHITECTURE.md §memory recall: the top executions for the next prompt, within `recall.maxItems` and
   * `recall.maxChars` (explicit references first, then relevance to the query and recency).
   * Each item reads `[art:…] title — summary`. Empty when recall is disabled.
   */
  recall(query?: string): { items: { ref: string; text: string }[]; chars: number; omitted: number } {
    const cfg = this.config.recall;
    if (!cfg.enabled || cfg.maxItems === 0 || this.#executions.length === 0) return { items: [], chars: 0, omitted: 0 };
    const live = new Set(this.live().map((e) => e.execution_id));
    const tracked = this.#executions.filter((t) => live.has(t.record.execution_id));
    const refOf = (t: Tracked) => t.short_ref ?? t.record.execution_id;
    const explicit = query
      ? this.#resolve(
          query,
          this.resolutionExecutions().filter((e) => e.id !== undefined && live.has(e.id)),
        ).candidates.map((c) => c.id)
      : [];
    const result = recallItems({
      items: tracked.map((t, order) => ({
        id: t.record.execution_id,
        order,
        tool_name: t.record.tool_name,
        tool_args: t.record.tool_args,
        ...(t.record.label ? { label: t.record.label } : {}),
        summary: t.record.result_summary,
        result_type: t.record.result_type,
        text: `[${refOf(t)}] ${t.record.artifact_title || t.record.tool_name} — ${t.record.result_summary}`,
      })),
      ...(query ? { query } : {}),
      explicitIds: explicit,
      maxItems: cfg.maxItems,
      budgetTokens: cfg.maxChars,
      countTokens: (text) => text.length, // the budget is in chars (the docs/ARCHITECTURE.md §memory maxChars)
    });
    const byId = new Map(tracked.map((t) => [t.record.execution_id, t]));
    return {
      items: result.items.map((i) => ({ ref: refOf(byId.get(i.id)!), text: i.text })),
      chars: result.tokens,
      omitted: result.omitted.length,
    };
  }

  /** The shape GET /api/artifacts/context/:session_id serves (docs/ARCHITECTURE.md §executions). */
  contextShape(): ExecutionContextShape {
    const liveIds = new Set(this.live().map((e) => e.execution_id));
    return ExecutionContextShapeSchema.parse({
      session_id: this.session,
      turn: this.#turn,
      auto_inject: this.config.executions.autoInject,
      executions: [...this.#executions].reverse().map(({ record, turn, short_ref }) => ({
        execution_id: record.execution_id,
        timestamp: record.timestamp,
        artifact_title: record.artifact_title,
        tool_name: record.tool_name,
        tool_args: record.tool_args,
        summary: record.result_summary,
        result_type: record.result_type,
        interaction_type: record.interaction_type,
        result_size: record.result_size,
        ...(record.result_ref ? { result_ref: record.result_ref } : {}),
        ...(short_ref ? { short_ref } : {}),
        turn,
        in_context: liveIds.has(record.execution_id),
      })),
      recent_files: this.recentFiles,
      recent_tools: this.recentTools,
    });
  }

  /** Serializable state (persist it, e.g. as JSON next to the transcript). */
  toJSON(): ExecutionState {
    return {
      session_id: this.session,
      turn: this.#turn,
      ...(this.#overrides ? { overrides: this.#overrides as Record<string, unknown> } : {}),
      executions: this.#executions.map((t) => ({ ...t })),
    };
  }

  /** Restores a context from `toJSON()` output (validated). */
  static fromJSON(state: unknown, options: Omit<ExecutionContextOptions, "session">): ExecutionContext {
    const parsed = ExecutionStateSchema.safeParse(state);
    if (!parsed.success) throw new ArefError("INVALID_INPUT", `invalid execution state: ${formatIssues(parsed.error)}`);
    const context = new ExecutionContext({
      ...options,
      session: parsed.data.session_id,
      ...(parsed.data.overrides ? { overrides: parsed.data.overrides as SessionOverrides } : {}),
    });
    context.#turn = parsed.data.turn;
    context.#executions = parsed.data.executions.map((e) => ({
      record: e.record,
      turn: e.turn,
      ...(e.short_ref ? { short_ref: e.short_ref } : {}),
    }));
    return context;
  }
}
