import type { ArtifactRecord, SessionReference } from "@artifact-refs/schema";

/**
 * Per-session metadata (label, summary, type, MIME, tool, created time) belongs to a session's
 * reference, not to the content record every session shares: bob storing bytes alice stored must
 * not see alice's label or summary (a planted "SYSTEM: …" summary would reach his prompt), nor
 * when she stored them.
 */

/** The shared record as stored by a put with a session: only what the bytes themselves determine. */
export function sharedRecord(record: ArtifactRecord): ArtifactRecord {
  const { label: _label, tool: _tool, ...rest } = record;
  return rest;
}

/** References written before per-session metadata (no `summary`): the record's is theirs only when made by the same put. */
const SAME_PUT_MS = 2_000;

/** What a session sees of an artifact: the shared record with its own reference's metadata, and nothing of another session's. */
export function sessionView(record: ArtifactRecord, reference: SessionReference): ArtifactRecord {
  const { label: _label, tool: _tool, summary: recordSummary, ...rest } = record;
  const legacySamePut =
    reference.summary === undefined &&
    Math.abs(Date.parse(reference.created_at) - Date.parse(record.created_at)) <= SAME_PUT_MS;
  const summary = reference.summary ?? (legacySamePut ? recordSummary : undefined);
  return {
    ...rest,
    type: reference.type,
    created_at: reference.created_at,
    ...(reference.mime === undefined ? {} : { mime: reference.mime }),
    ...(reference.label === undefined ? {} : { label: reference.label }),
    ...(reference.tool === undefined ? {} : { tool: reference.tool }),
    ...(summary === undefined ? {} : { summary }),
  };
}
