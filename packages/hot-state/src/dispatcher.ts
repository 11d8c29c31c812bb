import {
  ArefError,
  ArtifactIndexEntrySchema,
  type HotState,
  HotStateSchema,
  parseRef,
  parseWith,
  toShortRef,
} from "@artifact-refs/schema";
import { z } from "zod";
import { DEFAULT_BUDGET } from "@artifact-refs/budget";
import { type HotStateBuild, type HotStateBuildOptions, buildFromSelection } from "./build.js";
import { OrderedCandidates, type StoredCandidate } from "./ordered-index.js";
import type { IndexCandidate } from "./select.js";
import { deepFreeze } from "./serialize.js";

/** The hot state's own fields (everything but the index, which the dispatcher keeps as candidates). */
export type HotStateFields = Omit<HotState, "artifact_index">;
/** A change to the fields: `undefined` (or null, except for current_plan_id) removes a field. */
export type HotStatePatch = { [K in keyof Omit<HotStateFields, "session_id">]?: HotStateFields[K] | undefined };

/** An artifact index entry (the schema package's, same fields and limits) and what orders it. */
export const IndexCandidateSchema = ArtifactIndexEntrySchema.extend({
  pinned: z.boolean().optional(),
  last_referenced: z.number().int().nonnegative().optional(),
  created: z.number().int().nonnegative().optional(),
}).strict();

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
  if (opts === null || typeof opts !== "object") {
    throw new ArefError(
      "INVALID_INPUT",
      `createDispatcher needs options with a session_id, got ${opts === null ? "null" : typeof opts}`,
      {
        hint: 'e.g. createDispatcher({ session_id: "s1" })',
      },
    );
  }
  const { session_id, state: initial, snapshot, ...buildOptions } = opts;
  let fields: HotStateFields;
  type Stored = StoredCandidate;
  let index = new OrderedCandidates();
  let clock = 0;
  let version = 0;
  let current: HotStateBuild | undefined;

  if (snapshot !== undefined) {
    const restored = parseWith(DispatcherSnapshotSchema, snapshot, "hot state snapshot");
    if (restored.state.session_id !== session_id) {
      throw new ArefError(
        "INVALID_INPUT",
        `hot state snapshot is for session ${JSON.stringify(restored.state.session_id)}, not ${JSON.stringify(session_id)}`,
      );
    }
    fields = restored.state;
    clock = restored.clock;
    const seen = new Set<string>();
    for (const a of restored.artifacts) {
      if (seen.has(a.artifact_id))
        throw new ArefError("INVALID_INPUT", `invalid hot state snapshot: artifact ${a.artifact_id} appears twice`);
      seen.add(a.artifact_id);
      clock = Math.max(clock, a.created, a.last_referenced ?? 0);
    }
    index = OrderedCandidates.from(restored.artifacts.map((a) => ({ ...a })));
  } else {
    fields = parseWith(HotStateSchema.omit({ artifact_index: true }), { ...initial, session_id }, "hot state");
  }

  const touch = () => {
    version++;
  };
  const find = (ref: string): Stored | undefined => {
    const direct = index.get(ref);
    if (direct) return direct;
    const parsed = parseRef(ref);
    if (parsed.kind === "id") return index.get(parsed.id) ?? index.get(toShortRef(parsed.id));
    const matches = index.all.filter(
      (a) => a.artifact_id.startsWith(parsed.prefix) || a.artifact_id === `art:${parsed.prefix}`,
    );
    if (matches.length > 1) {
      throw new ArefError("AMBIGUOUS_REF", `${ref} matches ${matches.length} artifacts in the hot state`, {
        hint: "use a longer prefix or the full id",
        details: { candidates: matches.map((m) => m.artifact_id) },
      });
    }
    return matches[0];
  };
  /** Applies a change to a known artifact; false (nothing changed) when the ref matches none. */
  const update = (ref: string, change: (id: string) => void): boolean => {
    const found = find(ref);
    if (!found) return false;
    change(found.artifact_id);
    touch();
    return true;
  };
  const setList = (key: "accepted_decisions" | "open_questions" | "constraints", text: string) => {
    const value = z.string().min(1, `${key} items must not be empty`).safeParse(text);
    if (!value.success)
      throw new ArefError("INVALID_INPUT", `invalid hot state: ${key}: ${value.error.issues[0]?.message}`);
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
      const existing = index.get(candidate.artifact_id);
      if (existing) {
        const wasPinned = existing.pinned === true;
        const { pinned: _pinned, last_referenced: _ref, created: _created, ...meta } = candidate;
        Object.assign(existing, meta);
        index.touch(existing.artifact_id, clock);
        index.setPinned(existing.artifact_id, options.pinned ?? wasPinned);
      } else {
        const { last_referenced: _ref, created: _created, ...meta } = candidate;
        index.add({ ...meta, created: clock });
      }
      touch();
    },
    reference: (ref) => update(ref, (id) => index.touch(id, ++clock)),
    pin: (ref) => update(ref, (id) => index.setPinned(id, true)),
    unpin: (ref) => update(ref, (id) => index.setPinned(id, false)),
    removeArtifact: (ref) => update(ref, (id) => index.remove(id)),
    build() {
      // O(k): the ordered index gives the top k and their short refs without a pass over all candidates.
      const maxEntries = (buildOptions.config ?? DEFAULT_BUDGET).maxArtifactIndexEntries;
      const top = index.top(maxEntries);
      const refs = index.shortRefs(top.map((c) => c.artifact_id));
      current = buildFromSelection(
        parseWith(HotStateSchema, fields, "hot state"),
        top.map((candidate) => ({ candidate, order: candidate.created })),
        refs,
        index.size - top.length,
        buildOptions,
      );
      return current;
    },
    snapshot() {
      return deepFreeze({
        schema: "artifact-refs.hot-state-snapshot.v1" as const,
        state: structuredClone(fields),
        clock,
        artifacts: index.all.map((a) => ({ ...a })),
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
      if (frozenArtifacts?.version !== version)
        frozenArtifacts = { version, value: deepFreeze(index.all.map((a) => ({ ...a }))) };
      return frozenArtifacts.value;
    },
  });

  return Object.freeze({ writer: Object.freeze(writer), view });
}
