// What the assembler core gives its two strategies (window.ts, append.ts): the pieces of this
// call's prompt, and the core's services that cut, store and checkpoint.
import type { Cut, HotState } from "@artifact-refs/schema";
import type { HistoryLayout } from "./layout.js";
import type { PriceModel } from "./price-model.js";
import type {
  AssemblerBudgets,
  CheckpointInfo,
  HistoryMessage,
  ModelMessage,
  PartKind,
  PromptPart,
  TokenCounter,
} from "./types.js";

/** What assemble() hands both strategies: the history and the parts built for this call. */
export interface StrategyInput {
  history: readonly HistoryMessage[];
  layout: HistoryLayout;
  hotState: HotState;
  fixed: PromptPart[];
  hotPart: PromptPart;
  recallParts: PromptPart[];
  /** Shortened in place by the last-resort cut. */
  tailParts: PromptPart[];
  userParts: PromptPart[];
  counter: TokenCounter;
  cuts: Cut[];
}

export interface StrategyResult {
  parts: PromptPart[];
  compacted: boolean;
  /** The prompt carries the whole transcript as it came. */
  verbatim?: boolean;
}

/** The assembler core's services the strategies call (the core keeps the state they change). */
export interface StrategyCore {
  readonly budgets: AssemblerBudgets;
  readonly keepTurns: number;
  readonly priceModel: PriceModel;
  /** `PromptAssemblerOptions.appendCompaction`, defaulted. */
  readonly appendCompaction: "budget" | "cost";
  /** The checkpoint the latest prompt points at, if any. */
  checkpoint(): CheckpointInfo | undefined;
  /**
   * Cuts until the prompt fits maxPromptTokens (oldest kept turns, recall, largest inline
   * message, tail, previews); returns the turns kept, their parts and the recall parts left.
   */
  cutToFit(
    p: StrategyInput,
    checkpointTokens: (keep: number) => number,
    turnCuts: boolean,
  ): Promise<{ keep: number; kept: PromptPart[]; recall: PromptPart[] }>;
  /** The checkpoint part that reaches the omitted messages (written to the store when new). */
  checkpointFor(
    history: readonly HistoryMessage[],
    omitted: readonly number[],
    hotState: HotState,
    counter: TokenCounter,
  ): Promise<PromptPart[]>;
  /** The whole transcript as it came, or undefined when it does not fit. */
  verbatimParts(p: StrategyInput): Promise<{ stable: PromptPart[]; volatile: PromptPart[] } | undefined>;
  /** The parts of the last `keep` turns, with the user's current request. */
  keptTurnParts(
    history: readonly HistoryMessage[],
    layout: HistoryLayout,
    keep: number,
    counter: TokenCounter,
  ): Promise<PromptPart[]>;
  /** The parts of these history messages, large ones stored and shown by reference. */
  turnParts(
    history: readonly HistoryMessage[],
    indexes: readonly number[],
    counter: TokenCounter,
  ): Promise<PromptPart[]>;
  part(kind: PartKind, message: ModelMessage, counter: TokenCounter): PromptPart;
}

/** Tokens of these parts. */
export function sum(parts: readonly PromptPart[]): number {
  let n = 0;
  for (const p of parts) n += p.tokens;
  return n;
}
