import { ArefError, parseSessionId, toShortRef, type ArtifactId, type SessionReference } from "@artifact-refs/schema";
import { collect, mapLimit } from "./concurrency.js";
import { type StoreCore, listedVersion, rethrowUnlessCorrupt } from "./core.js";
import { REF_PREFIX, parseRefKey, sessionPrefix } from "./layout.js";
import { listedReference } from "./listed-references.js";
import type { Generation, ReferenceCache } from "./reference-cache.js";
import type { ReferenceWrites } from "./reference-writes.js";
import { uniquePrefixLengths } from "./short-ref-lengths.js";

/**
 * A session's references, oldest first (ArtifactStore.listReferences). UNKNOWN_SESSION when the session holds
 * none (live or expired). One listing, then a read of each reference, except those listed in the version this
 * instance already read or wrote (where the driver lists versions: S3). Each live reference is kept in
 * `references` as an access check made now (see keepAccessChecks).
 */
export async function listSessionReferences(
  core: StoreCore,
  writes: ReferenceWrites,
  references: ReferenceCache,
  session: string,
  options: { includeExpired?: boolean },
): Promise<SessionReference[]> {
  const sessionId = parseSessionId(session);
  const since = references.generation(sessionId);
  const entries = await collect(core.driver.list(sessionPrefix(sessionId)));
  const keys = entries.flatMap((e) => {
    const k = parseRefKey(e.key);
    return k === undefined || k.session !== sessionId ? [] : [{ ...k, listed: listedVersion(e) }];
  });
  if (keys.length === 0) {
    throw new ArefError("UNKNOWN_SESSION", `session ${sessionId} has no artifacts in this store`, {
      hint: "list the sessions with `aref list`",
    });
  }
  const now = core.now();
  const refs = await mapLimit(keys, 16, async (k) => {
    try {
      return await listedReference(core, writes, k.session, k.id, k.listed);
    } catch (error) {
      rethrowUnlessCorrupt(error);
      return undefined; // reported and repaired by verify
    }
  });
  keepAccessChecks(
    references,
    sessionId,
    keys.map((k) => k.id),
    refs.filter((r): r is SessionReference => r !== undefined && !core.isExpired(r, now)),
    since,
  );
  return refs
    .filter(
      (r): r is SessionReference => r !== undefined && (options.includeExpired === true || !core.isExpired(r, now)),
    )
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.artifact_id.localeCompare(b.artifact_id));
}

/**
 * Keeps the live references a whole-session listing just read as access checks, under their full ids and their
 * shortest prefixes unique among `ids` (every id the session's listing showed, live or not: what a read by short
 * ref would list).
 */
function keepAccessChecks(
  references: ReferenceCache,
  session: string,
  ids: ArtifactId[],
  live: SessionReference[],
  since: Generation,
): void {
  const lengths = uniquePrefixLengths(ids);
  for (const reference of live) {
    const id = reference.artifact_id;
    // The full id, bare and as a 64-hex short ref (how a caller names one of two ids sharing a prefix).
    references.set(session, id, reference, since);
    references.set(session, toShortRef(id, 64), reference, since);
    references.set(session, toShortRef(id, lengths.get(id) ?? 64), reference, since);
  }
}

/** Every session that holds at least one reference. */
export async function listSessions(core: StoreCore): Promise<string[]> {
  const sessions = new Set<string>();
  for await (const entry of core.driver.list(REF_PREFIX)) {
    const parsed = parseRefKey(entry.key);
    if (parsed) sessions.add(parsed.session);
  }
  return [...sessions].sort();
}
