import type { BudgetConfig } from "@artifact-refs/budget";
import type { ExecutionContextShape, ReferenceCandidate } from "@artifact-refs/context";
import type { ExecutionRecord, HotState, PromptMetrics, ResultType, Selection, Selector } from "@artifact-refs/schema";
import type { ChatTurn } from "./records.js";

/**
 * What the server needs from the lower layers, as small interfaces: createKit wires
 * @artifact-refs/context (execution records, context message), @artifact-refs/resolve
 * (selectors, reference resolution), @artifact-refs/budget (tokens, budgets) and
 * @artifact-refs/hot-state; an embedding app may replace any part.
 */
export interface NewExecution {
  session_id: string;
  tool_name: string;
  tool_args: Record<string, unknown>;
  artifact_type: string;
  artifact_title: string;
  user_id?: string;
  interaction_type: string;
  result: string;
  result_type: ResultType;
  /** The tool's own summary; the kit makes one when absent. */
  summary?: string;
  label?: string;
  mime?: string;
}

/** Records executions (large results go to the store) and lists them per session. */
export interface ExecutionLog {
  record(input: NewExecution): Promise<ExecutionRecord>;
  /** A session's newest executions (up to `limit`, before the cursor), oldest first (empty for a session without any). */
  list(session: string, options?: { limit?: number; before?: string }): Promise<ExecutionRecord[]>;
  /** One page of executions and the cursor of the next older page (the default builds it from `list`). */
  page?(
    session: string,
    options?: { limit?: number; before?: string },
  ): Promise<{ executions: ExecutionRecord[]; before?: string; skipped: number }>;
  /** One execution by id (the default searches `list`). */
  find?(session: string, executionId: string): Promise<ExecutionRecord | undefined>;
  /** The full result text of a recorded execution (inline, or read from the store). */
  result(record: ExecutionRecord): Promise<string>;
  /** Sessions with at least one execution (for GET /api/sessions). */
  sessions?(): Promise<string[]>;
}

/** One ranked execution a chat message may mean: the resolve package's candidate (`id` is the execution id). */
export type { ReferenceCandidate };

export interface ContextMessage {
  role: "system";
  content: string;
}

export type ContextView = ExecutionContextShape;

export interface ChatContext {
  /** This chat turn's number in the session (1 for the first). */
  turn: number;
  /** The system message to inject, or null when the session has nothing to inject. */
  message: ContextMessage | null;
  /** Executions the user's words refer to, best first. */
  referenced: string[];
  /** Their records, when the kit has them at hand (saves the caller a listing). */
  referencedRecords?: ExecutionRecord[];
  /** Every execution the message may mean, best first, with why (the chat receipt names `id` `execution_id`). */
  candidates: ReferenceCandidate[];
  ambiguous: boolean;
}

export interface HotStateView {
  state: HotState;
  tokens: number;
  bytes: number;
  truncated: boolean;
}

export interface ServerKit {
  executions: ExecutionLog;
  /** Bounded selection over text (never more than the selector's cap). */
  select(text: string, selector: Selector): Selection;
  /** Starts a chat turn: resolves the user's message to executions and builds the context message. */
  chatContext(session: string, message: string): Promise<ChatContext>;
  /** The docs/ARCHITECTURE.md §executions GET /api/artifacts/context/:session_id answer. */
  contextView(session: string): Promise<ContextView>;
  /** The budgets chat turns are checked against (the docs/ARCHITECTURE.md §references table by default). */
  budget: BudgetConfig;
  metrics: {
    record(event: PromptMetrics): Promise<void>;
    /** The session's newest events (up to `limit`, default 500), oldest first. */
    list(session: string, options?: { limit?: number; before?: string }): Promise<PromptMetrics[]>;
  };
  /** The session's chat turns (question, resolution, answer). */
  chatTurns: {
    record(session: string, turn: ChatTurn): Promise<void>;
    /** Newest turns before the cursor, oldest first, and the cursor of the next older page. */
    page(
      session: string,
      options?: { limit?: number; before?: string },
    ): Promise<{ turns: ChatTurn[]; before?: string; skipped: number }>;
  };
  /** The session's hot state built from its references, or undefined when it holds none. */
  hotState(session: string): Promise<HotStateView | undefined>;
}
