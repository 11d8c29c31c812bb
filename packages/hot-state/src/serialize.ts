import { ArefError } from "@artifact-refs/schema";
import type { ArtifactIndexEntry, HotState } from "@artifact-refs/schema";

/**
 * Key order of the serialized hot state: most stable first, most volatile last. Fields set
 * once per session come first, then the append-only lists (with the artifact index), then
 * the per-step fields. A turn that changes only `last_successful_step` leaves every byte
 * before it unchanged, and a new index entry is appended at the end of the index, so
 * providers' prompt caches keep hitting on the longest possible prefix.
 */
export const HOT_STATE_KEY_ORDER = [
  "session_id",
  "session_key",
  "run_id",
  "objective",
  "constraints",
  "accepted_decisions",
  "artifact_index",
  "current_plan_id",
  "open_questions",
  "risk_level",
  "last_successful_step",
] as const satisfies readonly (keyof HotState)[];

export const INDEX_ENTRY_KEY_ORDER = [
  "artifact_id",
  "type",
  "label",
  "version",
  "summary",
] as const satisfies readonly (keyof ArtifactIndexEntry)[];

function entryJson(entry: ArtifactIndexEntry): string {
  const parts: string[] = [];
  for (const key of INDEX_ENTRY_KEY_ORDER) {
    const value = entry[key];
    if (value !== undefined) parts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * Canonical JSON of a hot state: fixed key order (HOT_STATE_KEY_ORDER), no whitespace,
 * absent and empty lists left out, index entries in their given (stable) order. The same
 * state always gives the same bytes, whatever the key order of the object passed in.
 */
export function serializeHotState(state: HotState): string {
  if (state === null || typeof state !== "object" || typeof state.session_id !== "string") {
    throw new ArefError("INVALID_INPUT", "serializeHotState needs a hot state object (with a session_id)", {
      hint: "validate it first with HotStateSchema",
    });
  }
  const parts: string[] = [];
  for (const key of HOT_STATE_KEY_ORDER) {
    const value = state[key];
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (key === "artifact_index") {
      parts.push(`"artifact_index":[${(value as ArtifactIndexEntry[]).map(entryJson).join(",")}]`);
    } else {
      parts.push(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
    }
  }
  return `{${parts.join(",")}}`;
}

/** Deep-freezes plain objects and arrays (the read-only views handed to everyone but the dispatcher). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}
