import type { ExecutionRecord } from "@artifact-refs/schema";
import type { ChatContext, ContextView, ExecutionLog, ReferenceCandidate } from "./types.js";

/** Seed 004's context shape for GET /api/artifacts/context/{session_id}, newest execution first. */
export function contextViewOf(session: string, executions: ExecutionRecord[]): ContextView {
  const newestFirst = [...executions].reverse();
  const recentFiles: string[] = [];
  const recentTools: string[] = [];
  for (const e of newestFirst) {
    const path = e.tool_args.path;
    if (typeof path === "string" && !recentFiles.includes(path) && recentFiles.length < 10) recentFiles.push(path);
    if (!recentTools.includes(e.tool_name) && recentTools.length < 10) recentTools.push(e.tool_name);
  }
  return {
    session_id: session,
    executions: newestFirst.map((e) => ({
      execution_id: e.execution_id,
      timestamp: e.timestamp,
      artifact_title: e.artifact_title,
      tool_name: e.tool_name,
      tool_args: e.tool_args,
      summary: e.result_summary,
      result_type: e.result_type,
      result_size: e.result_size,
      ...(e.result_ref === undefined ? {} : { result_ref: e.result_ref }),
    })),
    recent_files: recentFiles,
    recent_tools: recentTools,
  };
}

// PROVISIONAL until @artifact-refs/resolve exports resolveReferences and @artifact-refs/context
// its context message: the smallest temporal + file-name resolution, so the server runs.
function provisionalResolve(message: string, executions: ExecutionRecord[]): ReferenceCandidate[] {
  const q = message.toLowerCase();
  const out: ReferenceCandidate[] = [];
  const last = executions.at(-1);
  if (last && /\b(just|last|latest|recent)\b/.test(q)) out.push({ execution_id: last.execution_id, score: 1, reasons: ["temporal: most recent execution"] });
  for (const e of [...executions].reverse()) {
    const path = e.tool_args.path;
    if (typeof path === "string" && path !== "." && q.includes(path.toLowerCase()) && !out.some((c) => c.execution_id === e.execution_id)) {
      out.push({ execution_id: e.execution_id, score: 0.9, reasons: [`content: mentions ${path}`] });
    }
  }
  return out;
}

export async function chatContextFromExecutions(log: ExecutionLog, _session: string, message: string, executions: ExecutionRecord[]): Promise<ChatContext> {
  if (executions.length === 0) return { message: null, referenced: [], candidates: [], ambiguous: false };
  const candidates = provisionalResolve(message, executions);
  const included = candidates.map((c) => executions.find((e) => e.execution_id === c.execution_id)!);
  const parts = ["**Artifact Context:**", "", "The user recently executed the following tools via artifacts:"];
  let i = 1;
  for (const e of included) {
    const result = await log.result(e);
    parts.push("", `${i++}. **${e.artifact_title}**`, `   Tool: ${e.tool_name}`, `   Arguments: ${JSON.stringify(e.tool_args)}`, "   Result:", "   ```", result.slice(0, 5_000), "   ```");
  }
  parts.push("", "You can reference these results when answering the user's questions.");
  return { message: included.length ? { role: "system", content: parts.join("\n") } : null, referenced: included.map((e) => e.execution_id), candidates, ambiguous: false };
}
