// A small client for the server's HTTP API (same origin, bearer token from the page).
export interface ApiError {
  status: number;
  code: string;
  message: string;
  hint?: string;
}

export class Api {
  token = "";

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const e = json?.error ?? {};
      const err: ApiError = {
        status: res.status,
        code: e.code ?? `HTTP_${res.status}`,
        message: e.message ?? res.statusText,
        ...(e.hint ? { hint: e.hint } : {}),
      };
      throw err;
    }
    return json as T;
  }
}

export function describeError(e: unknown): string {
  const err = e as Partial<ApiError>;
  if (err && typeof err.code === "string") return `${err.code}: ${err.message}${err.hint ? ` (${err.hint})` : ""}`;
  return String((e as Error)?.message ?? e);
}

export interface ToolInfo {
  name: string;
  title: string;
  description: string;
  args: {
    properties?: Record<string, { type?: string; default?: unknown; description?: string }>;
    required?: string[];
  };
}

export interface ExecutionResponse {
  execution_id: string;
  status: "success" | "error" | "partial";
  tool_name: string;
  artifact_title: string;
  result: string;
  result_truncated: boolean;
  result_size: number;
  result_ref?: string;
  summary: string;
  timestamp: string;
  error?: { code: string; message: string };
}

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

export interface ChatReceipt {
  context_message: { role: "system"; content: string } | null;
  referenced_executions: string[];
  candidates: Array<{ execution_id: string; score: number; reasons: string[] }>;
  response: string | null;
  provider: string | null;
  metrics: { est_tokens: number; budget_ok: boolean };
}

export interface MetricsReceipt {
  budget: { prompt_tokens: number };
  turns: Array<{ turn?: number; est_tokens: number; budget_ok: boolean; ts?: string }>;
}

export interface FetchReceipt {
  text: string;
  chars: number;
  total_chars: number;
  total_lines: number;
  truncated: boolean;
  omitted?: string;
  next?: Record<string, unknown>;
  short_ref?: string;
}

export interface ListReceipt {
  count: number;
  items: Array<{
    artifact_id: string;
    short_ref: string;
    type: string;
    size_bytes: number;
    created_at: string;
    label?: string;
    summary?: string;
    expires_at?: string;
  }>;
}

export interface HotStateReceipt {
  hot_state: { artifact_index?: Array<{ artifact_id: string; type: string; label?: string }> } | null;
}

export interface ChatTurnsReceipt {
  turns: Array<{
    turn: number;
    message: string;
    referenced_executions: string[];
    context_chars: number;
    response: string | null;
  }>;
  before?: string;
}
