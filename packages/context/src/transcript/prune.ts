import { ArefError, type ArtifactRef, type TranscriptEntry } from "@artifact-refs/schema";
import { tagInjected } from "../injected.js";
import { ARTIFACTS_GET_TOOL_NAME } from "../model-hint.js";
import { artifactRefOf } from "./reader.js";

/** Every artifact reference a transcript holds, in order of first appearance, each once. */
export function collectReferences(entries: readonly TranscriptEntry[]): ArtifactRef[] {
  const seen = new Map<string, ArtifactRef>();
  for (const entry of entries) {
    const ref = artifactRefOf(entry);
    if (ref && !seen.has(ref.artifact_id)) seen.set(ref.artifact_id, ref);
    const carried = entry.details?.carriedRefs as ArtifactRef[] | undefined;
    for (const c of carried ?? []) if (!seen.has(c.artifact_id)) seen.set(c.artifact_id, c);
  }
  return [...seen.values()];
}

/** The text of a reference index: one line per reference, short ref + size + summary. */
export function renderReferenceIndex(refs: readonly ArtifactRef[], summaryChars = 120): string {
  const lines = refs.map((r) => {
    const summary = (r.summary ?? "").replace(/\s+/g, " ").trim();
    return `- ${r.short_ref} (${r.size_bytes} bytes)${summary ? `: ${summary.length > summaryChars ? `${summary.slice(0, summaryChars - 1)}…` : summary}` : ""}`;
  });
  return [
    `Earlier tool outputs (pruned from the conversation, still fetchable with ${ARTIFACTS_GET_TOOL_NAME}):`,
    ...lines,
  ].join("\n");
}

export interface PruneOptions {
  /** Keep this many most recent entries (a tool result is never separated from its call). */
  keepLast: number;
  /** Keep leading system entries (default true). */
  keepSystem?: boolean;
}

export interface PruneResult {
  entries: TranscriptEntry[];
  /** Entries removed. */
  dropped: number;
  /** References the removed entries held: carried by an injected index entry, never dropped. */
  carried: ArtifactRef[];
}

/**
 * Drops older entries but never a reference: the references the dropped entries held are
 * carried by one injected, tagged index entry (details.carriedRefs) placed where they were.
 * Throws INTERNAL if a reference would be lost (the invariant is checked, not assumed).
 */
export function pruneTranscript(entries: readonly TranscriptEntry[], options: PruneOptions): PruneResult {
  if (!Number.isInteger(options.keepLast) || options.keepLast < 0) {
    throw new ArefError("INVALID_INPUT", `keepLast must be a non-negative integer, got ${options.keepLast}`);
  }
  let head = 0;
  if (options.keepSystem !== false)
    while (head < entries.length && entries[head]!.role === "system" && !entries[head]!.details?.carriedRefs) head++;
  let start = Math.max(head, entries.length - options.keepLast);
  // Do not start on a tool result whose call would be dropped.
  while (start > head && entries[start]?.role === "tool") start--;
  const dropped = entries.slice(head, start);
  if (dropped.length === 0) return { entries: [...entries], dropped: 0, carried: [] };
  const carried = collectReferences(dropped);
  const kept = [...entries.slice(0, head)];
  if (carried.length > 0) {
    kept.push({
      type: "message",
      role: "system",
      content: tagInjected(renderReferenceIndex(carried)),
      details: { injected: true, carriedRefs: carried },
    });
  }
  kept.push(...entries.slice(start));
  const before = new Set(collectReferences(entries).map((r) => r.artifact_id));
  const after = new Set(collectReferences(kept).map((r) => r.artifact_id));
  for (const id of before) {
    if (!after.has(id)) throw new ArefError("INTERNAL", `pruning would drop the reference to ${id.slice(0, 12)}`);
  }
  return { entries: kept, dropped: dropped.length, carried };
}
