import type { ArtifactStore } from "@artifact-refs/store";
import { type HotState, hasErrorCode, parseRef, parseSessionId } from "@artifact-refs/schema";
import { type HotStateBuild, type HotStateBuildOptions, buildHotState } from "./build.js";
import { type IndexCandidate, selectTop } from "./select.js";
import { DEFAULT_BUDGET } from "@artifact-refs/budget";

export interface SessionHotStateOptions extends HotStateBuildOptions {
  /** Fields to show besides the index (objective, constraints, …). */
  state?: Omit<HotState, "session_id" | "artifact_index">;
  /** Ids (or short refs) to pin. */
  pinned?: readonly string[];
}

/**
 * The hot state a session's references give: every live reference is an index candidate,
 * oldest first (so new ones are appended), with its label and type; the summaries of the
 * entries that make the index are read from their records. UNKNOWN_SESSION when the
 * session holds no reference.
 */
export async function sessionHotState(
  store: ArtifactStore,
  session: string,
  opts: SessionHotStateOptions = {},
): Promise<HotStateBuild> {
  const sessionId = parseSessionId(session);
  // Oldest first; ties (same millisecond) by id, so the order never depends on the backend's listing.
  const references = (await store.listReferences(sessionId)).sort((a, b) =>
    a.created_at < b.created_at
      ? -1
      : a.created_at > b.created_at
        ? 1
        : a.artifact_id < b.artifact_id
          ? -1
          : a.artifact_id > b.artifact_id
            ? 1
            : 0,
  );
  // Pins: full ids, handles, short refs or prefixes (an ambiguous prefix pins every match it names).
  const pins = (opts.pinned ?? []).map((p) => parseRef(p));
  const isPinned = (id: string) => pins.some((p) => (p.kind === "id" ? p.id === id : id.startsWith(p.prefix)));
  const candidates: IndexCandidate[] = references.map((r, i) => ({
    artifact_id: r.artifact_id,
    type: r.type,
    ...(r.label === undefined ? {} : { label: r.label }),
    ...(isPinned(r.artifact_id) ? { pinned: true } : {}),
    created: i,
  }));
  const maxEntries = (opts.config ?? DEFAULT_BUDGET).maxArtifactIndexEntries;
  await Promise.all(
    selectTop(candidates, maxEntries).map(async (i) => {
      const c = candidates[i]!;
      // One damaged record or blob must not fail the whole hot state: that entry just goes without a summary (verify reports it).
      const record = await store.getRecord(c.artifact_id, { session: sessionId }).catch((error: unknown) => {
        if (hasErrorCode(error, "CORRUPT_METADATA") || hasErrorCode(error, "INTEGRITY")) return undefined;
        throw error;
      });
      if (record === undefined) return;
      if (record.summary) c.summary = record.summary;
      if (c.label === undefined && record.label !== undefined) c.label = record.label;
    }),
  );
  return buildHotState(
    { state: { ...opts.state, session_id: sessionId }, candidates },
    { listHint: `aref list --session ${sessionId}`, ...opts },
  );
}
