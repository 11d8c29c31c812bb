import type { ArtifactRef, BudgetViolation, Cut, HotState, PromptMetrics, ToolCall } from "@artifact-refs/schema";

/** Roles a prompt message can have. */
export type PromptRole = "system" | "user" | "assistant" | "tool";

/**
 * One message of the conversation the assembler works from: a transcript entry as the
 * externalizer left it. An externalized tool result carries `artifactRef` (the model then
 * sees the reference form, not the payload); `content` may be empty for those.
 */
export interface HistoryMessage {
  role: PromptRole;
  content: string;
  tool_name?: string | undefined;
  tool_call_id?: string | null | undefined;
  tool_calls?: ToolCall[] | undefined;
  /** Set for an externalized tool result: the prompt shows the reference, never the payload. */
  artifactRef?: ArtifactRef | undefined;
}

/** What a part of the prompt is, so tests and metrics can check what was kept. */
export type PartKind =
  | "system"
  | "task"
  | "bootstrap"
  | "hot_state"
  | "checkpoint"
  | "recall"
  | "turn"
  | "tail"
  | "user";

/** A message as sent to the model (provider-neutral, maps 1:1 onto OpenAI/Anthropic messages). */
export interface ModelMessage {
  role: PromptRole;
  content: string;
  tool_call_id?: string | null;
  tool_calls?: ToolCall[];
  name?: string;
}

/** One part of an assembled prompt with its rendered text and token count. */
export interface PromptPart {
  kind: PartKind;
  message: ModelMessage;
  /** Deterministic rendering of `message`: what is counted and compared byte for byte. */
  text: string;
  tokens: number;
  /** Index in the history of the message this part carries, when it carries one. */
  source?: number;
  /** Artifact id when the part shows a reference instead of the payload. */
  ref?: string;
}

/** Counts tokens. Implementations must be deterministic; a throw counts as a budget violation. */
export interface TokenCounter {
  count(text: string): number;
}

/** Budgets of docs/ARCHITECTURE.md §references that the assembler enforces (fail closed). */
export interface AssemblerBudgets {
  /** Max tokens of the whole prompt (default 8,000). */
  maxPromptTokens: number;
  /** Max tokens of the hot state JSON (default 1,000). */
  maxHotStateTokens: number;
  /** Max entries of the hot state's artifact index (default 20). */
  maxArtifactIndexEntries: number;
  /** Max recall chunks per turn (default 10). */
  maxRagChunks: number;
  /** Tool results longer than this are shown by reference (default 2,000 chars). */
  maxInlineArtifactChars: number;
}

export const DEFAULT_BUDGETS: AssemblerBudgets = Object.freeze({
  maxPromptTokens: 8_000,
  maxHotStateTokens: 1_000,
  maxArtifactIndexEntries: 20,
  maxRagChunks: 10,
  maxInlineArtifactChars: 2_000,
});

/** `window`: smallest prompt each call. `append`: byte-stable, append-only until the budget, then a checkpoint. */
export type AssemblyStrategy = "window" | "append";

/** A workspace file offered to the model at the start of every prompt (docs/ARCHITECTURE.md §references bootstrap context). */
export interface BootstrapFile {
  name: string;
  content: string;
  mime?: string;
}

/** One recalled item (from resolve's top-K recall or the caller's own). */
export interface RecallItem {
  ref: string;
  text: string;
}

/** What the caller hands the assembler for one model call. */
export interface AssembleInput {
  /** The whole conversation so far (system and task first), as the transcript keeps it. */
  history: readonly HistoryMessage[];
  /** The dispatcher's hot state for this call (validated; serialized deterministically). */
  hotState: HotState;
  /**
   * Recall section items, already ranked; at most maxRagChunks are used. Takes resolve's
   * `recall()` result as it is (`{items: [{id, text}]}`).
   */
  recall?: readonly RecallItem[] | { items: ReadonlyArray<{ id: string; text: string }> };
  /**
   * Injected tool results for this call only (for example an `artifacts_get` answer): placed
   * after the turns, tagged as injected, never stashed again.
   */
  tail?: readonly ModelMessage[];
  /** A new user message, placed last. */
  userMessage?: string;
  /** True when the hot state builder had to leave something out (metrics' hs_truncated). */
  hotStateTruncated?: boolean;
}

/** Result of one assembly. */
export interface AssembledPrompt {
  strategy: AssemblyStrategy;
  turn: number;
  parts: PromptPart[];
  messages: ModelMessage[];
  tokens: number;
  /** History indexes the prompt carries (verbatim or by reference). */
  included: number[];
  /** History indexes the prompt leaves out; each is reachable from `checkpoint`. */
  omitted: number[];
  /** The checkpoint the prompt points at, when turns were left out. */
  checkpoint?: CheckpointInfo;
  /** True when this call started a new append run (compaction happened). */
  compacted: boolean;
  /**
   * True when the prompt carries the whole transcript as it came (stored payloads read back,
   * no checkpoint): it fit the budget and costs what the naive transcript costs.
   */
  verbatim: boolean;
  metrics: PromptMetrics;
  violations: BudgetViolation[];
  cuts: Cut[];
}

/** A stored checkpoint pack (docs/ARCHITECTURE.md §sidecar): hot state + index + summary + the compacted messages. */
export interface CheckpointInfo {
  artifactId: string;
  shortRef: string;
  handle: string;
  /** History indexes whose messages this checkpoint (with its predecessors) holds. */
  covers: number[];
  /** The text injected into the prompt after compaction. */
  text: string;
}
