import { HotStateSchema, type ArtifactIndexEntry, type HotState } from "@artifact-refs/schema";
import { stableJson } from "./render.js";

/**
 * What changed between two hot states, as `append` writes it after the run's full hot state:
 * changed keys with their new value (null = removed), and the artifact index as added entries
 * and removed ids, so an update costs what changed, not the whole state.
 */
export interface HotStateDelta {
  set?: Record<string, unknown>;
  unset?: string[];
  artifact_index_added?: ArtifactIndexEntry[];
  artifact_index_removed?: string[];
}

export function hotStateDelta(prev: HotState, next: HotState): HotStateDelta | undefined {
  const delta: HotStateDelta = {};
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)]);
  for (const key of [...keys].sort()) {
    if (key === "artifact_index") continue;
    const a = (prev as Record<string, unknown>)[key];
    const b = (next as Record<string, unknown>)[key];
    if (b === undefined && a !== undefined) (delta.unset ??= []).push(key);
    else if (b !== undefined && stableJson(a) !== stableJson(b)) (delta.set ??= {})[key] = b;
  }
  const before = prev.artifact_index ?? [];
  const after = next.artifact_index ?? [];
  const beforeKeys = new Set(before.map((e) => stableJson(e)));
  const afterKeys = new Set(after.map((e) => stableJson(e)));
  const added = after.filter((e) => !beforeKeys.has(stableJson(e)));
  const removed = before.filter((e) => !afterKeys.has(stableJson(e))).map((e) => e.artifact_id);
  // Order matters in the index: when kept entries moved, send the whole index instead.
  const keptOrderBefore = before.filter((e) => afterKeys.has(stableJson(e))).map((e) => stableJson(e));
  const keptOrderAfter = after.filter((e) => beforeKeys.has(stableJson(e))).map((e) => stableJson(e));
  const appendOnly =
    keptOrderBefore.join("\n") === keptOrderAfter.join("\n") &&
    after.slice(after.length - added.length).every((e) => !beforeKeys.has(stableJson(e)));
  if (!appendOnly) {
    if (stableJson(before) !== stableJson(after)) (delta.set ??= {}).artifact_index = after;
  } else {
    if (added.length > 0) delta.artifact_index_added = added;
    if (removed.length > 0) delta.artifact_index_removed = removed;
  }
  return Object.keys(delta).length === 0 ? undefined : delta;
}

/** Applies a delta (the reader's side: what the model is told to do with an update). */
export function applyHotStateDelta(base: HotState, delta: HotStateDelta): HotState {
  const out: Record<string, unknown> = { ...base };
  for (const key of delta.unset ?? []) delete out[key];
  for (const [key, value] of Object.entries(delta.set ?? {})) out[key] = value;
  if (delta.artifact_index_added || delta.artifact_index_removed) {
    const removed = new Set(delta.artifact_index_removed ?? []);
    const index = ((out.artifact_index as ArtifactIndexEntry[] | undefined) ?? []).filter(
      (e) => !removed.has(e.artifact_id),
    );
    index.push(...(delta.artifact_index_added ?? []));
    if (index.length > 0) out.artifact_index = index;
    else delete out.artifact_index;
  }
  return HotStateSchema.parse(out);
}

export const HOT_STATE_PREFIX = "Hot state: ";
export const HOT_STATE_UPDATE_PREFIX = "Hot state update (apply to the hot state above): ";
