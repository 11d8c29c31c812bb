import type { ExecutionContext } from "@artifact-refs/context";
import type { ExecutionLike } from "@artifact-refs/resolve";
import { hasErrorCode, toShortRef, type SessionReference } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";

/** Newest direct stashes a resolution sees (a session may hold many references). */
export const MAX_STASH_RECORDS = 200;

/**
 * The session's references, or none (a session with executions only has no references yet).
 */
export async function sessionReferences(store: ArtifactStore, session: string): Promise<SessionReference[]> {
  try {
    return await store.listReferences(session);
  } catch (error) {
    if (hasErrorCode(error, "UNKNOWN_SESSION")) return [];
    throw error;
  }
}

/**
 * What the resolver reads for a chat message: the session's executions (with their time and the
 * stored result's ref) and, as `tool_name: "stash"` records, the artifacts stashed into the session
 * directly (CLI, API, MCP, adapters) that no execution record covers, all in time order. "What I
 * just stashed" then means the newest stash, whichever way it was made. A stash record's id is the
 * artifact's short ref (`art:…`), so a candidate names what to fetch.
 */
export function resolutionInput(context: ExecutionContext, references: SessionReference[]): ExecutionLike[] {
  const executions: ExecutionLike[] = context.resolutionExecutions().map((e) => {
    const record = e.id === undefined ? undefined : context.getExecution(e.id);
    return {
      ...e,
      ...(record ? { timestamp: record.timestamp } : {}),
      ...(record?.result_ref ? { result_ref: record.result_ref } : {}),
    };
  });
  const covered = new Set(executions.map((e) => e.result_ref).filter((r) => r !== undefined));
  const ids = new Set<string>();
  const idOf = (artifactId: string) => {
    const short = toShortRef(artifactId);
    const id = ids.has(short) ? toShortRef(artifactId, 64) : short; // two artifacts sharing a short prefix
    ids.add(id);
    return id;
  };
  const stashes: ExecutionLike[] = references
    .filter((ref) => !covered.has(ref.artifact_id))
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
    .slice(-MAX_STASH_RECORDS)
    .map((ref) => ({
      id: idOf(ref.artifact_id),
      tool_name: "stash",
      tool_args: { ...(ref.label ? { label: ref.label } : {}), type: ref.type },
      ...(ref.label ? { label: ref.label } : {}),
      ...(ref.summary ? { summary: ref.summary } : {}),
      timestamp: ref.created_at,
      result_ref: ref.artifact_id,
      stashed: true,
    }));
  if (stashes.length === 0) return executions;
  const at = (e: ExecutionLike) => (e.timestamp ? Date.parse(e.timestamp) : Number.NaN);
  // A stable merge by time: executions keep their order among themselves; one without a time stays in place.
  const merged: ExecutionLike[] = [];
  let s = 0;
  for (const e of executions) {
    while (s < stashes.length && at(stashes[s]!) < at(e)) merged.push(stashes[s++]!);
    merged.push(e);
  }
  merged.push(...stashes.slice(s));
  return merged.map((e, order) => ({ ...e, order }));
}
