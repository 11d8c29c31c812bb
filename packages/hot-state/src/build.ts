import { type BudgetConfig, type CountOptions, DEFAULT_BUDGET, tryCountTokens } from "@artifact-refs/budget";
import {
  ArefError,
  type ArtifactIndexEntry,
  ArtifactIndexEntrySchema,
  type Cut,
  formatIssues,
  type HotState,
  HotStateSchema,
  parseWith,
} from "@artifact-refs/schema";
import { type IndexCandidate, selectTop, shortRefsFor } from "./select.js";
import { deepFreeze, serializeHotState } from "./serialize.js";

export interface HotStateBuildInput {
  /** The hot state's fields. An `artifact_index` in it is treated as candidates placed before `candidates`. */
  state: HotState;
  /** Index candidates in their stable order (the order entries were first added; new ones last). */
  candidates?: readonly IndexCandidate[];
}

export interface HotStateBuildOptions extends CountOptions {
  /** Caps: maxHotStateTokens and maxArtifactIndexEntries. Default: the docs/ARCHITECTURE.md §references (1,000 tokens, 20 entries). */
  config?: BudgetConfig;
  /** How the model gets an evicted entry back. Default: `artifacts_get <short ref>`. */
  recover?: (ref: string) => string;
  /** Name of the session listing command shown in the index-cap cut. */
  listHint?: string;
}

export type BuildStep = "index_cap" | "evict_unpinned" | "shorten_lists" | "evict_pinned" | "minimal";

/** What the hot state's metrics event needs (PromptMetrics' hs_* fields and the index). */
export interface HotStateMetrics {
  hs_tokens: number;
  hs_bytes: number;
  hs_truncated: boolean;
  artifacts: number;
  artifact_types: string[];
}

export interface HotStateBuild {
  /** The validated state, deep-frozen. */
  state: HotState;
  /** Its canonical JSON: the same state always gives the same bytes. */
  json: string;
  tokens: number;
  bytes: number;
  /** True when anything was left out to fit a cap. */
  truncated: boolean;
  /** Everything left out, and how to get it back. */
  cuts: Cut[];
  /** The steps of the eviction ladder that ran, in order. */
  steps: BuildStep[];
  /** Full ids (or given refs) of the candidates not in the index. Only those selected then evicted for tokens are listed; see `cuts` for the index-cap count. */
  evicted: string[];
  /** The caps it was built for. */
  limits: { maxTokens: number; maxEntries: number };
  metrics: HotStateMetrics;
}

const LIST_KEYS = ["open_questions", "accepted_decisions", "constraints"] as const;
type ListKey = (typeof LIST_KEYS)[number];
/** Fields kept in the minimal fallback state. */
export const MINIMAL_KEYS = [
  "session_id",
  "session_key",
  "run_id",
  "objective",
  "risk_level",
] as const satisfies readonly (keyof HotState)[];

function preview(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/**
 * Builds the hot state for one prompt, within its caps, by a stated policy:
 * 1. index cap: keep the `maxArtifactIndexEntries` candidates of highest priority
 *    (pinned, then most recently referenced, then newest), shown in their stable order;
 * 2. token cap, in this order until it fits:
 *    a. evict unpinned index entries, lowest priority first;
 *    b. shorten lists: drop the oldest item of the longest list (open_questions,
 *       accepted_decisions, constraints), one at a time;
 *    c. evict pinned entries, lowest priority first;
 *    d. fall back to the minimal state (session_id, session_key, run_id, objective, risk_level).
 * Each step takes the fewest removals that fit (binary search over the step's removals).
 * Every removal is a cut in the result; `truncated` is true when there is any.
 * A state that cannot fit even in minimal form is a BUDGET_EXCEEDED error. A count that
 * cannot be made is a TOKENIZER_FAILED error (fail closed: fit cannot be shown).
 * Cost: one pass over the candidates (O(n log k)); tokens are counted only on the final,
 * small state (once when it fits, O(log k) times when it does not).
 */
export function buildHotState(input: HotStateBuildInput, opts: HotStateBuildOptions = {}): HotStateBuild {
  if (input === null || typeof input !== "object") {
    throw new ArefError(
      "INVALID_INPUT",
      `buildHotState needs { state, candidates? }, got ${input === null ? "null" : typeof input}`,
      {
        hint: 'e.g. buildHotState({ state: { session_id: "s1", objective: "…" }, candidates: [] })',
      },
    );
  }
  if (opts === null || typeof opts !== "object")
    throw new ArefError("INVALID_INPUT", "buildHotState options must be an object");
  const maxEntries = (opts.config ?? DEFAULT_BUDGET).maxArtifactIndexEntries;
  const base = parseWith(HotStateSchema, input.state, "hot state");
  const given = input.candidates ?? [];
  if (!Array.isArray(given)) throw new ArefError("INVALID_INPUT", "invalid hot state candidates: expected an array");
  // A cheap shape check of every candidate (the selected few are validated in full below).
  const bad = given.findIndex(
    (c) => c === null || typeof c !== "object" || typeof (c as { artifact_id?: unknown }).artifact_id !== "string",
  );
  if (bad !== -1)
    throw new ArefError(
      "INVALID_INPUT",
      `invalid hot state candidate #${bad + 1}: expected an object with an artifact_id string`,
    );
  const candidates: readonly IndexCandidate[] = base.artifact_index?.length
    ? [...base.artifact_index, ...given]
    : given;

  // 1. Index cap: one pass, bounded heap.
  const picked = selectTop(candidates, maxEntries); // highest priority first
  const refs = shortRefsFor(
    picked.map((i) => candidates[i]!.artifact_id),
    candidates,
  );
  return buildFromSelection(
    base,
    picked.map((i) => ({ candidate: candidates[i]!, order: i })),
    refs,
    candidates.length - picked.length,
    opts,
  );
}

/** One selected index entry: the candidate and its place in the stable display order. */
export interface SelectedEntry {
  candidate: IndexCandidate;
  order: number;
}

/**
 * The rest of the build, once the index candidates are selected (highest priority first)
 * and their short refs known: used by buildHotState (after its pass over an array) and by
 * the dispatcher (which keeps its candidates ordered and selects in O(k)).
 * @internal
 */
export function buildFromSelection(
  base: HotState,
  selected: readonly SelectedEntry[],
  refs: ReadonlyMap<string, string>,
  overCap: number,
  opts: HotStateBuildOptions,
): HotStateBuild {
  const config = opts.config ?? DEFAULT_BUDGET;
  const maxTokens = config.maxHotStateTokens;
  const maxEntries = config.maxArtifactIndexEntries;
  const recover = opts.recover ?? ((ref: string) => `artifacts_get ${ref}`);
  const cuts: Cut[] = [];
  const steps: BuildStep[] = [];
  const evicted: string[] = [];
  const candidates = selected.map((s) => s.candidate);
  const picked = selected.map((_, i) => i);
  if (overCap > 0 && picked.length === maxEntries) {
    steps.push("index_cap");
    cuts.push({
      what: `${overCap.toLocaleString("en-US")} index candidate${overCap === 1 ? "" : "s"} beyond the cap`,
      reason: `artifact index cap of ${maxEntries} entries (maxArtifactIndexEntries); kept by priority: pinned, then most recently referenced, then newest`,
      recover: `still in the store: ${opts.listHint ?? "list the session's artifacts (aref list --session <id>)"} and fetch by ref`,
    });
  }
  const entryOf = new Map<number, ArtifactIndexEntry>();
  for (const i of picked) {
    const c = candidates[i]!;
    const entry: Record<string, unknown> = { artifact_id: refs.get(c.artifact_id) ?? c.artifact_id, type: c.type };
    if (c.label !== undefined) entry.label = c.label;
    if (c.version !== undefined) entry.version = c.version;
    if (c.summary !== undefined) entry.summary = c.summary;
    const parsed = ArtifactIndexEntrySchema.safeParse(entry);
    if (!parsed.success) {
      throw new ArefError(
        "INVALID_INPUT",
        `invalid hot state: artifact index candidate ${selected[i]!.order} (${JSON.stringify(c.artifact_id)}): ${formatIssues(parsed.error)}`,
        {
          hint: "index entries need a 64-hex artifact id or an art:<hex> short ref, a known type, a label ≤ 300 chars and a summary ≤ 500 chars",
        },
      );
    }
    entryOf.set(i, parsed.data);
  }
  const displayOrder = [...picked].sort((a, b) => selected[a]!.order - selected[b]!.order);
  const evictionOrder = [...picked].reverse(); // lowest priority first
  const unpinned = evictionOrder.filter((i) => candidates[i]!.pinned !== true);
  const pinned = evictionOrder.filter((i) => candidates[i]!.pinned === true);

  // The list items in removal order: oldest item of the longest list first.
  const listRemovals: { key: ListKey; index: number }[] = [];
  {
    const remaining = Object.fromEntries(LIST_KEYS.map((k) => [k, base[k]?.length ?? 0])) as Record<ListKey, number>;
    const next = Object.fromEntries(LIST_KEYS.map((k) => [k, 0])) as Record<ListKey, number>;
    for (;;) {
      let longest: ListKey | undefined;
      for (const k of LIST_KEYS)
        if (remaining[k] > 0 && (longest === undefined || remaining[k] > remaining[longest])) longest = k;
      if (longest === undefined) break;
      listRemovals.push({ key: longest, index: next[longest]++ });
      remaining[longest]--;
    }
  }

  const stateAt = (evictUnpinned: number, dropItems: number, evictPinned: number, minimal = false): HotState => {
    if (minimal) {
      const out: Record<string, unknown> = {};
      for (const k of MINIMAL_KEYS) if (base[k] !== undefined) out[k] = base[k];
      return out as HotState;
    }
    const gone = new Set<number>([...unpinned.slice(0, evictUnpinned), ...pinned.slice(0, evictPinned)]);
    const dropped = new Map<ListKey, number>();
    for (const r of listRemovals.slice(0, dropItems)) dropped.set(r.key, (dropped.get(r.key) ?? 0) + 1);
    const out: HotState = { ...base };
    for (const k of LIST_KEYS) {
      const n = dropped.get(k);
      if (n && base[k]) out[k] = base[k]!.slice(n);
    }
    const index = displayOrder.filter((i) => !gone.has(i)).map((i) => entryOf.get(i)!);
    if (index.length > 0) out.artifact_index = index;
    else delete out.artifact_index;
    return out;
  };

  const measure = (state: HotState): { json: string; tokens: number } => {
    const json = serializeHotState(state);
    const counted = tryCountTokens(json, opts);
    if (!counted.ok) {
      throw new ArefError(
        "TOKENIZER_FAILED",
        `hot state could not be counted, so its fit cannot be shown (fail closed): ${counted.error.message}`,
        {
          hint: counted.error.hint ?? "check the tokenizer",
          cause: counted.error,
        },
      );
    }
    return { json, tokens: counted.tokens };
  };

  /** Fewest removals (1..total) that fit, or undefined when even all of them do not. */
  const fewest = (total: number, at: (m: number) => HotState): number | undefined => {
    if (total === 0 || measure(at(total)).tokens > maxTokens) return undefined;
    let lo = 1;
    let hi = total;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (measure(at(mid)).tokens <= maxTokens) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };

  let final = stateAt(0, 0, 0);
  let measured = measure(final);
  let usedUnpinned = 0;
  let usedItems = 0;
  let usedPinned = 0;
  let minimal = false;
  if (measured.tokens > maxTokens) {
    steps.push("evict_unpinned");
    const a = fewest(unpinned.length, (m) => stateAt(m, 0, 0));
    usedUnpinned = a ?? unpinned.length;
    if (a === undefined) {
      steps.push("shorten_lists");
      const b = fewest(listRemovals.length, (m) => stateAt(usedUnpinned, m, 0));
      usedItems = b ?? listRemovals.length;
      if (b === undefined) {
        steps.push("evict_pinned");
        const c = fewest(pinned.length, (m) => stateAt(usedUnpinned, usedItems, m));
        usedPinned = c ?? pinned.length;
        if (c === undefined) {
          steps.push("minimal");
          minimal = true;
        }
      }
    }
    final = stateAt(usedUnpinned, usedItems, usedPinned, minimal);
    measured = measure(final);
    if (measured.tokens > maxTokens) {
      throw new ArefError(
        "BUDGET_EXCEEDED",
        `hot state cannot fit in ${maxTokens} tokens (maxHotStateTokens) even in minimal form: ${measured.tokens} tokens with only ${Object.keys(final).join(", ")}`,
        {
          hint: "shorten the objective (or session_key/run_id), or raise maxHotStateTokens (AREF_MAX_HOT_STATE_TOKENS)",
          details: { tokens: measured.tokens, limit: maxTokens, fields: Object.keys(final) },
        },
      );
    }
    // Cuts, in the order they were made.
    const reason = `hot state over ${maxTokens} tokens (maxHotStateTokens)`;
    const evictedEntries = [...unpinned.slice(0, usedUnpinned), ...(minimal ? pinned : pinned.slice(0, usedPinned))];
    const listCuts: Cut[] = [];
    for (const r of listRemovals.slice(0, minimal ? listRemovals.length : usedItems)) {
      const text = base[r.key]![r.index]!;
      listCuts.push({
        what: `${r.key}[${r.index}] ${preview(text)}`,
        reason,
        chars: text.length,
        recover: "kept in the dispatcher's full state; shown again when the hot state has room",
      });
    }
    const entryCut = (i: number): Cut => {
      const e = entryOf.get(i)!;
      const counted = tryCountTokens(JSON.stringify(e), opts);
      return {
        what: `index entry ${e.artifact_id}${e.label ? ` (${e.label})` : ""}`,
        reason: `${reason}; evicted by priority (pinned, then most recently referenced, then newest)`,
        ...(counted.ok ? { tokens: counted.tokens } : {}),
        recover: recover(e.artifact_id),
      };
    };
    cuts.push(...unpinned.slice(0, usedUnpinned).map(entryCut));
    cuts.push(...listCuts);
    cuts.push(...(minimal ? pinned : pinned.slice(0, usedPinned)).map(entryCut));
    if (minimal) {
      const droppedFields = Object.keys(base).filter(
        (k) =>
          !(MINIMAL_KEYS as readonly string[]).includes(k) &&
          !(LIST_KEYS as readonly string[]).includes(k) &&
          k !== "artifact_index",
      );
      if (droppedFields.length > 0) {
        cuts.push({
          what: `fields ${droppedFields.join(", ")}`,
          reason: `${reason}; minimal fallback state`,
          recover: "kept in the dispatcher's full state; shown again when the hot state has room",
        });
      }
    }
    // For the result: full ids of the entries evicted for tokens.
    for (const i of evictedEntries) evicted.push(candidates[i]!.artifact_id);
  }

  const state = deepFreeze(parseWith(HotStateSchema, final, "hot state (built)"));
  const json = measured.json;
  const index = state.artifact_index ?? [];
  const artifactTypes = [...new Set(index.map((e) => e.type))].sort();
  const bytes = Buffer.byteLength(json, "utf8");
  const truncated = cuts.length > 0;
  return deepFreeze({
    state,
    json,
    tokens: measured.tokens,
    bytes,
    truncated,
    cuts,
    steps,
    evicted,
    limits: { maxTokens, maxEntries },
    metrics: {
      hs_tokens: measured.tokens,
      hs_bytes: bytes,
      hs_truncated: truncated,
      artifacts: index.length,
      artifact_types: artifactTypes,
    },
  });
}
