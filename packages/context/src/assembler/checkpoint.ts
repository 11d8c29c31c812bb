import {
  ArefError,
  ArtifactIndexEntrySchema,
  HotStateSchema,
  ToolCallSchema,
  parseWith,
  toHandle,
  type ArtifactIndexEntry,
  type HotState,
} from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { z } from "zod";
import { actionLine } from "./render.js";
import type { CheckpointInfo, HistoryMessage } from "./types.js";

export const CHECKPOINT_SCHEMA = "artifact-refs.checkpoint.v1";

/** A compacted message inside a checkpoint: verbatim, or (externalized tool result) its reference. */
export const CheckpointMessageSchema = z.object({
  index: z.number().int().nonnegative(),
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  tool_name: z.string().optional(),
  tool_call_id: z.string().nullable().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  artifact_ref: z
    .object({
      artifact_id: z.string().regex(/^[0-9a-f]{64}$/),
      short_ref: z.string(),
      size_bytes: z.number().int().nonnegative(),
    })
    .optional(),
});
export type CheckpointMessage = z.infer<typeof CheckpointMessageSchema>;

/**
 * A checkpoint pack (docs/ARCHITECTURE.md §sidecar): the hot state and artifact index at compaction, a summary of
 * the compacted turns, and every compacted message (tool payloads by reference). Packs chain:
 * `previous` is the handle of the pack before, so one reference reaches all compacted history.
 */
export const CheckpointPackSchema = z.object({
  schema: z.literal(CHECKPOINT_SCHEMA),
  session: z.string(),
  /** Model call (1-based count of assistant messages so far) at which the pack was made. */
  call: z.number().int().nonnegative(),
  previous: z.string().nullable(),
  first_index: z.number().int().nonnegative(),
  last_index: z.number().int().nonnegative(),
  hot_state: HotStateSchema,
  index: z.array(ArtifactIndexEntrySchema),
  summary: z.array(z.string()),
  messages: z.array(CheckpointMessageSchema),
});
export type CheckpointPack = z.infer<typeof CheckpointPackSchema>;

export interface BuildCheckpointInput {
  session: string;
  call: number;
  previous: CheckpointInfo | undefined;
  hotState: HotState;
  /** The messages being compacted, with their history indexes (ascending). */
  messages: ReadonlyArray<{ index: number; message: HistoryMessage }>;
  /** Lines of the summary shown in the injected text (most recent last). */
  summaryLines?: number;
}

/** Builds the pack (deterministic for the same input). */
export function buildCheckpointPack(input: BuildCheckpointInput): CheckpointPack {
  if (input.messages.length === 0)
    throw new ArefError("INVALID_INPUT", "a checkpoint needs at least one message to compact");
  // The pack's index: the hot state's entries, then every reference of the compacted messages
  // (uncapped: compaction never drops a reference).
  const index: ArtifactIndexEntry[] = [...(input.hotState.artifact_index ?? [])];
  const known = new Set(index.map((e) => e.artifact_id));
  for (const { index: i, message: m } of input.messages) {
    const ref = m.artifactRef;
    if (!ref || known.has(ref.short_ref) || known.has(ref.artifact_id)) continue;
    known.add(ref.short_ref);
    index.push({
      artifact_id: ref.short_ref,
      type: m.role === "tool" ? "tool_output" : "result",
      label: `${m.tool_name ?? m.role} result, message #${i}`.slice(0, 300),
    });
  }
  const summary: string[] = [];
  const messages: CheckpointMessage[] = input.messages.map(({ index: i, message: m }) => {
    if (m.role === "assistant") summary.push(`#${i} ${actionLine(m.content, m.tool_calls, 90)}`);
    else if (m.artifactRef) summary.push(`#${i} → ${m.artifactRef.short_ref} (${m.artifactRef.size_bytes} bytes)`);
    else if (m.role === "user") summary.push(`#${i} user: ${actionLine(m.content, undefined, 90)}`);
    return {
      index: i,
      role: m.role,
      content: m.content,
      ...(m.tool_name === undefined ? {} : { tool_name: m.tool_name }),
      ...(m.tool_call_id === undefined ? {} : { tool_call_id: m.tool_call_id }),
      ...(m.tool_calls === undefined ? {} : { tool_calls: m.tool_calls }),
      ...(m.artifactRef
        ? {
            artifact_ref: {
              artifact_id: m.artifactRef.artifact_id,
              short_ref: m.artifactRef.short_ref,
              size_bytes: m.artifactRef.size_bytes,
            },
          }
        : {}),
    };
  });
  return {
    schema: CHECKPOINT_SCHEMA,
    session: input.session,
    call: input.call,
    previous: input.previous?.handle ?? null,
    first_index: input.messages[0]!.index,
    last_index: input.messages.at(-1)!.index,
    hot_state: input.hotState,
    index,
    summary,
    messages,
  };
}

/** Stores the pack as a `checkpoint` artifact and returns its reference and injected text. */
export async function writeCheckpoint(
  store: ArtifactStore,
  pack: CheckpointPack,
  previous: CheckpointInfo | undefined,
  options: {
    summaryLines?: number /** Summary lines of earlier packs, oldest first (shown before this pack's). */;
    earlier?: readonly string[];
  } = {},
): Promise<CheckpointInfo> {
  const body = JSON.stringify(pack);
  const put = await store.put(body, {
    type: "checkpoint",
    mime: "application/json",
    label: `checkpoint of messages ${pack.first_index}-${pack.last_index}`,
    producer: "dispatcher",
    session: pack.session,
    summary: `checkpoint: messages ${pack.first_index}-${pack.last_index}, ${pack.index.length} index entries`,
  });
  const covers = [...(previous?.covers ?? []), ...pack.messages.map((m) => m.index)];
  const info: CheckpointInfo = {
    artifactId: put.id,
    shortRef: put.shortRef,
    handle: toHandle(put.id),
    covers,
    text: "",
  };
  info.text = checkpointText(info, pack, options.summaryLines ?? 3, options.earlier ?? []);
  return info;
}

/**
 * The text injected after compaction (the docs/ARCHITECTURE.md §sidecar bundle text + retrieval hints): which
 * messages the checkpoint holds, how to fetch them, and the last few compacted actions.
 */
export function checkpointText(
  info: CheckpointInfo,
  pack: CheckpointPack,
  summaryLines: number,
  earlier: readonly string[] = [],
): string {
  const first = Math.min(...info.covers);
  const last = pack.last_index;
  const lines = [
    `[checkpoint ${info.shortRef}] Messages #${first}-#${last} are compacted into checkpoint ${info.shortRef} ` +
      `(hot state, artifact index, summary and every message; "previous" chains older packs). ` +
      `Read with artifacts_get("${info.shortRef}", {"mode":"jsonpath","path":"$.summary"}) or "$.messages[?(@.index==N)]".`,
  ];
  const recent = summaryLines > 0 ? [...earlier, ...pack.summary].slice(-summaryLines) : [];
  if (recent.length > 0) lines.push(`Last compacted: ${recent.join(" | ")}`);
  return lines.join("\n");
}

/** Reads and validates a checkpoint pack back from the store (trust nothing read back). */
export async function readCheckpoint(store: ArtifactStore, ref: string, session?: string): Promise<CheckpointPack> {
  const text = await store.getText(ref, session === undefined ? {} : { session });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ArefError("CORRUPT_METADATA", `checkpoint ${ref} is not valid JSON`, {
      cause,
      hint: "the artifact is not a checkpoint pack",
    });
  }
  return parseWith(CheckpointPackSchema, json, `checkpoint ${ref}`, "CORRUPT_METADATA");
}

/**
 * Every history index reachable from a checkpoint by following `previous` links, with the
 * messages themselves (tests use it to prove that nothing left out of a prompt is lost).
 */
export async function reachableFromCheckpoint(
  store: ArtifactStore,
  ref: string,
  session?: string,
): Promise<Map<number, CheckpointMessage>> {
  const out = new Map<number, CheckpointMessage>();
  const seen = new Set<string>();
  let next: string | null = ref;
  while (next !== null) {
    if (seen.has(next)) throw new ArefError("CORRUPT_METADATA", `checkpoint chain loops at ${next}`);
    seen.add(next);
    const pack: CheckpointPack = await readCheckpoint(store, next, session);
    for (const m of pack.messages) if (!out.has(m.index)) out.set(m.index, m);
    next = pack.previous;
  }
  return out;
}
