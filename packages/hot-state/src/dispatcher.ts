import {
  ArefError,
  ArtifactIdSchema,
  ArtifactTypeSchema,
  type HotState,
  HotStateSchema,
  MAX_LABEL_CHARS,
  MAX_SUMMARY_CHARS,
  ShortRefSchema,
  parseRef,
  parseWith,
  toShortRef,
} from "@artifact-refs/schema";
import { z } from "zod";
import { type HotStateBuild, type HotStateBuildOptions, buildHotState } from "./build.js";
import type { IndexCandidate } from "./select.js";
import { deepFreeze } from "./serialize.js";

/** The hot state's own fields (everything but the index, which the dispatcher keeps as candidates). */
export type HotStateFields = Omit<HotState, "artifact_index">;
/** A change to the fields: `undefined` (or null, except for current_plan_id) removes a field. */
export type HotStatePatch = { [K in keyof Omit<HotStateFields, "session_id">]?: HotStateFields[K] | undefined };

export const IndexCandidateSchema = z
  .object({
    artifact_id: z.union([ArtifactIdSchema, ShortRefSchema]),
    type: ArtifactTypeSchema,
    label: z.string().max(MAX_LABEL_CHARS).optional(),
    version: z.string().max(64).optional(),
    summary: z.string().max(MAX_SUMMARY_CHARS).optional(),
    pinned: z.boolean().optional(),
    last_referenced: z.number().int().nonnegative().optional(),
    created: z.number().int().nonnegative().optional(),
  })
  .strict();

/** Everything a dispatcher holds, to persist it and restore it later (`createDispatcher({ snapshot })`). */
export const DispatcherSnapshotSchema = z
  .object({
    schema: z.literal("artifact-refs.hot-state-snapshot.v1"),
    state: HotStateSchema.omit({ artifact_index: true }),
    clock: z.number().int().nonnegative(),
    artifacts: z.array(IndexCandidateSchema.required({ created: true })),
  })
  .strict();
export type DispatcherSnapshot = z.infer<typeof DispatcherSnapshotSchema>;

export interface DispatcherOptions extends HotStateBuildOptions {
  session_id: string;
  /** Initial fields (objective, constraints, …). */
  state?: Omit<HotStateFields, "session_id">;
  /** Restores a dispatcher saved with `writer.snapshot()` (its session_id must match). */
  snapshot?: unknown;
}

export interface NewArtifact {
  artifact_id: string;
  type: IndexCandidate["type"];
  label?: string;
  version?: string;
  summary?: string;
}

/** The only write capability over a session's hot state. Hand it to the dispatcher and nobody else. */
export interface HotStateWriter {
  /** Changes fields (validated; an invalid change is refused whole). */
  update(patch: HotStatePatch): void;
  addDecision(text: string): void;
  addQuestion(text: string): void;
  /** Removes an open question; false when it was not open. */
  resolveQuestion(text: string): boolean;
  addConstraint(text: string): void;
  /** Adds an artifact to the index candidates (appended: existing entries keep their place). Re-adding refreshes it. */
  addArtifact(entry: NewArtifact, opts?: { pinned?: boolean }): void;
  /** Marks an artifact as referenced now (full id, handle, short ref or prefix); false when unknown. */
  reference(ref: string): boolean;
  pin(ref: string): boolean;
  unpin(ref: string): boolean;
  removeArtifact(ref: string): boolean;
  /** Builds the capped, validated, serialized hot state for the next prompt; the views see it. */
  build(): HotStateBuild;
  snapshot(): DispatcherSnapshot;
}

/** Read-only, frozen access for everyone else. */
export interface HotStateView {
  readonly session_id: string;
  /** The last build (what the last prompt carried), or undefined before the first build. */
  readonly current: HotStateBuild | undefined;
  /** The full working fields, uncapped (deep-frozen copy). */
  fields(): Readonly<HotStateFields>;
  /** Every index candidate with its pin and recency (deep-frozen copies), in stable order. */
  artifacts(): readonly Readonly<IndexCandidate>[];
  /** Number of writes so far; changes whenever the state does. */
  readonly version: number;
}

export interface Dispatcher {
  readonly writer: HotStateWriter;
  readonly view: HotStateView;
}

const PatchSchema = HotStateSchema.omit({ artifact_index: true, session_id: true }).partial();

/**
 * Creates a session's hot state and returns its writer (once: there is no other way to
 * get one) and a read-only view to share. Every write is validated; the state is
 * validated again on every build.
 */
export function createDispatcher(opts: DispatcherOptions): Dispatcher {
  const { session_id, state: initial, snapshot, ...buildOptions } = opts;
  let fields: HotStateFields;
  type Stored = IndexCandidate & { created: number };
  const artifacts: Stored[] = [];
  const byId = new Map<string, Stored>();
  let clock = 0;
  let version = 0;
  let current: HotStateBuild | undefined;

  if (snapshot !== undefined) {
    const restored = parseWith(DispatcherSnapshotSchema, snapshot, "hot state snapshot");
    if (restored.state.session_id !== session_id) {
      throw new ArefError("INVALID_INPUT", `hot state snapshot is for session ${JSON.stringify(restored.state.session_id)}, not ${JSON.stringify(session_id)}`);
    }
    fields = restored.state;
    clock = restored.clock;
    for (const a of restored.artifacts) {
      if (byId.has(a.artifact_id)) throw new ArefError("INVALID_INPUT", `invalid hot state snapshot: artifact ${a.artifact_id} appears twice`);
      const copy = { ...a };
      artifacts.push(copy);
      byId.set(copy.artifact_id, copy);
      clock = Math.max(clock, copy.created, copy.last_referenced ?? 0);
    }
  } else {
    fields = parseWith(HotStateSchema.omit({ artifact_index: true }), { ...initial, session_id }, "hot state");
  }

  const touch = () => {
    version++;
  };
  const find = (ref: string): Stored | undefined => {
    if (byId.has(ref)) return byId.get(ref);
    const parsed = parseRef(ref);
    if (parsed.kind === "id") return byId.get(parsed.id) ?? byId.get(toShortRef(parsed.id));
    const matches = artifacts.filter((a) => a.artifact_id.startsWith(parsed.prefix) || a.artifact_id === `art:${parsed.prefix}`);
    if (matches.length > 1) {
      throw new ArefError("AMBIGUOUS_REF", `${ref} matches ${matches.length} artifacts in the hot state`, {
        hint: "use a longer prefix or the full id",
        details: { candidates: matches.map((m) => m.artifact_id) },
      });
    }
    return matches[0];
  };
  const setList = (key: "accepted_decisions" | "open_questions" | "constraints", text: string) => {
    const value = z.string().min(1, `${key} items must not be empty`).safeParse(text);
    if (!value.success) throw new ArefError("INVALID_INPUT", `invalid hot state: ${key}: ${value.error.issues[0]?.message}`);
    fields = { ...fields, [key]: [...(fields[key] ?? []), text] };
    touch();
  };

  const writer: HotStateWriter = {
    update(patch) {
      const checked = parseWith(PatchSchema, patch, "hot state update");
      const next: Record<string, unknown> = { ...fields };
      for (const key of Object.keys(patch) as (keyof HotStatePatch)[]) {
        const value = (checked as Record<string, unknown>)[key];
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      fields = parseWith(HotStateSchema.omit({ artifact_index: true }), next, "hot state");
      touch();
    },
    addDecision: (text) => setList("accepted_decisions", text),
    addQuestion: (text) => setList("open_questions", text),
    addConstraint: (text) => setList("constraints", text),
    resolveQuestion(text) {
      const open = fields.open_questions ?? [];
      const at = open.indexOf(text);
      if (at < 0) return false;
      fields = { ...fields, open_questions: open.filter((_, i) => i !== at) };
      touch();
      return true;
    },
    addArtifact(entry, options = {}) {
      const candidate = parseWith(
        IndexCandidateSchema,
        { ...entry, ...(options.pinned === undefined ? {} : { pinned: options.pinned }) },
        "hot state artifact",
      );
      clock++;
      const existing = byId.get(candidate.artifact_id);
      if (existing) {
        Object.assign(existing, candidate, { created: existing.created, last_referenced: clock });
        if (options.pinned === undefined && existing.pinned === undefined) delete existing.pinned;
      } else {
        const added = { ...candidate, created: clock };
        artifacts.push(added);
        byId.set(added.artifact_id, added);
      }
      touch();
    },
    reference(ref) {
      const found = find(ref);
      if (!found) return false;
      found.last_referenced = ++clock;
      touch();
      return true;
    },
    pin(ref) {
      const found = find(ref);
      if (!found) return false;
      found.pinned = true;
      touch();
      return true;
    },
    unpin(ref) {
      const found = find(ref);
      if (!found) return false;
      delete found.pinned;
      touch();
      return true;
    },
    removeArtifact(ref) {
      const found = find(ref);
      if (!found) return false;
      artifacts.splice(artifacts.indexOf(found), 1);
      byId.delete(found.artifact_id);
      touch();
      return true;
    },
    build() {
      current = buildHotState({ state: fields, candidates: artifacts }, buildOptions);
      return current;
    },
    snapshot() {
      return deepFreeze({
        schema: "artifact-refs.hot-state-snapshot.v1" as const,
        state: structuredClone(fields),
        clock,
        artifacts: artifacts.map((a) => ({ ...a })),
      });
    },
  };

  let frozenFields: { version: number; value: Readonly<HotStateFields> } | undefined;
  let frozenArtifacts: { version: number; value: readonly Readonly<IndexCandidate>[] } | undefined;
  const view: HotStateView = Object.freeze({
    session_id,
    get current() {
      return current;
    },
    get version() {
      return version;
    },
    fields() {
      if (frozenFields?.version !== version) frozenFields = { version, value: deepFreeze(structuredClone(fields)) };
      return frozenFields.value;
    },
    artifacts() {
      if (frozenArtifacts?.version !== version) frozenArtifacts = { version, value: deepFreeze(artifacts.map((a) => ({ ...a }))) };
      return frozenArtifacts.value;
    },
  });

  return Object.freeze({ writer: Object.freeze(writer), view });
}
