import type { ExecutionRecord, HotState, PromptMetrics, ResultType, Selection, Selector } from "@artifact-refs/schema";

/**
 * What the server needs from the lower layers (resolve, context, budget, hot-state),
 * as small interfaces: the server wires the packages' implementations in kit/index.ts,
 * and an embedding app may pass its own.
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

/** Records executions (the result goes to the store) and lists them per session. */
export interface ExecutionLog {
  record(input: NewExecution): Promise<ExecutionRecord>;
  /** A session's executions, oldest first. */
  list(session: string): Promise<ExecutionRecord[]>;
  /** The full result text of a recorded execution. */
  result(record: ExecutionRecord): Promise<string>;
  /** Sessions with at least one execution (for GET /api/sessions), when the log can list them. */
  sessions?(): Promise<string[]>;
}

export interface ReferenceCandidate {
  execution_id: string;
  score: number;
  reasons: string[];
}

export interface ContextMessage {
  role: "system";
  content: string;
}

/** Seed 004's GET /api/artifacts/context/{session_id} shape. */
export interface ContextView {
  session_id: string;
  executions: Array<{
    execution_id: string;
    timestamp: string;
    artifact_title: string;
    tool_name: string;
    tool_args: Record<string, unknown>;
    summary: string;
    result_type: string;
    result_size: number;
    result_ref?: string;
  }>;
  recent_files: string[];
  recent_tools: string[];
}

export interface ChatContext {
  /** The system message to inject, or null when the session has nothing to inject. */
  message: ContextMessage | null;
  /** Executions the user's words refer to, best first. */
  referenced: string[];
  candidates: ReferenceCandidate[];
  ambiguous: boolean;
}

export interface ServerKit {
  executions: ExecutionLog;
  /** Bounded selection over text (never more than the selector's cap). */
  select(text: string, selector: Selector): Selection;
  /** Resolves the user's message to the executions it means and builds the context message. */
  chatContext(session: string, message: string, executions: ExecutionRecord[]): Promise<ChatContext>;
  contextView(session: string, executions: ExecutionRecord[]): ContextView;
  /** Token count of a text for the prompt metrics. */
  countTokens(text: string): number;
  /** The prompt budget in tokens (seed 000: 8,000). */
  promptBudget: number;
  metrics: {
    record(event: PromptMetrics): Promise<void>;
    list(session: string): Promise<PromptMetrics[]>;
  };
  hotState(session: string): Promise<{ state: HotState; tokens?: number } | undefined>;
}
