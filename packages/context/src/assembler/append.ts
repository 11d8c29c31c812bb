// The append strategy: each call extends the previous prompt byte for byte (new messages, hot
// state updates as deltas), so a provider's prompt cache reads the prefix at the cached price;
// when the run no longer fits, or (appendCompaction "cost") a compaction is cheaper than a longer
// run, it starts a new run from a checkpoint of everything before the last turns.
import type { HotState } from "@artifact-refs/schema";
import { compactionPays } from "./price-model.js";
import { HOT_STATE_UPDATE_PREFIX, hotStateDelta } from "./hot-state-delta.js";
import type { HistoryLayout } from "./layout.js";
import { stableJson } from "./render.js";
import { sum, type StrategyCore, type StrategyInput, type StrategyResult } from "./strategy.js";
import type { HistoryMessage, PromptPart, TokenCounter } from "./types.js";
import { extendsParts } from "./verbatim.js";

interface AppendRun {
  parts: PromptPart[];
  /** History index of the next message to append. */
  next: number;
  /** The hot state the run's parts add up to (full state + updates). */
  hotState: HotState;
  /** Tokens of the run's parts when it started, and calls made in it since. */
  startTokens: number;
  calls: number;
  /** The run carries the whole transcript as it came (no checkpoint, no hot state when shown). */
  verbatim?: boolean;
  /** The last message the run covers, rendered: a history edited under the run starts a new one. */
  last: string;
}

/** The append strategy of one assembler: it keeps the current run between calls. */
export class AppendStrategy {
  readonly #core: StrategyCore;
  #run: AppendRun | undefined;

  constructor(core: StrategyCore) {
    this.#core = core;
  }

  async assemble(p: StrategyInput): Promise<StrategyResult> {
    const { history, layout, hotState, counter } = p;
    const volatile = [...p.recallParts, ...p.tailParts, ...p.userParts];
    const run = this.#run;
    if (!run || run.verbatim) {
      // While the whole transcript fits, send it as it came: it costs what naive costs, no more.
      // Only when the hot state is left out: a changing state is sent as updates by the runs below.
      const whole = await this.#core.verbatimParts(p);
      const verbatim = whole && !whole.stable.some((x) => x.kind === "hot_state") ? whole : undefined;
      const compactNow =
        verbatim && run?.verbatim
          ? await this.#cheaperToCompact(run, verbatim.stable, history, layout, counter)
          : false;
      if (verbatim && !compactNow) {
        const extended = run !== undefined && extendsParts(run.parts, verbatim.stable);
        this.#run = {
          parts: verbatim.stable,
          next: history.length,
          hotState,
          startTokens: extended ? run.startTokens : sum(verbatim.stable),
          calls: extended ? run.calls + 1 : 0,
          verbatim: true,
          last: lastText(history, history.length),
        };
        return { parts: [...verbatim.stable, ...verbatim.volatile], compacted: false, verbatim: true };
      }
    }
    const firstTurn = layout.turns[0]?.[0] ?? history.length;
    if (
      run &&
      !run.verbatim &&
      run.next <= history.length &&
      run.next >= firstTurn &&
      run.last === lastText(history, run.next)
    ) {
      const added = await this.#core.turnParts(history, range(run.next, history.length), counter);
      const delta = hotStateDelta(run.hotState, hotState);
      const hsParts = delta
        ? [
            this.#core.part(
              "hot_state",
              { role: "system", content: `${HOT_STATE_UPDATE_PREFIX}${stableJson(delta)}` },
              counter,
            ),
          ]
        : [];
      const stable = [...run.parts, ...added, ...hsParts];
      const fits = sum(stable) + sum(volatile) <= this.#core.budgets.maxPromptTokens;
      if (fits && !(await this.#cheaperToCompact(run, stable, history, layout, counter))) {
        this.#run = {
          ...run,
          parts: stable,
          next: history.length,
          hotState,
          calls: run.calls + 1,
          last: lastText(history, history.length),
        };
        return { parts: [...stable, ...volatile], compacted: false };
      }
    }
    // Start a new run: everything before the last turns goes into a checkpoint.
    const turns = layout.turns;
    const { keep, kept, recall } = await this.#core.cutToFit(p, (k) => (turns.length > k ? 250 : 0), false);
    const omittedIdx = turns.slice(0, turns.length - keep).flat();
    const ckptPart = await this.#core.checkpointFor(history, omittedIdx, hotState, counter);
    if (omittedIdx.length > 0) {
      p.cuts.push({
        what: `messages #${omittedIdx[0]}-#${omittedIdx.at(-1)} compacted`,
        reason: "append run reached maxPromptTokens",
        tokens: 0,
        recover: this.#core.checkpoint()?.shortRef ?? "checkpoint",
      });
    }
    const stable = [...p.fixed, ...ckptPart, p.hotPart, ...kept];
    this.#run = {
      parts: stable,
      next: history.length,
      hotState,
      startTokens: sum(stable),
      calls: 0,
      last: lastText(history, history.length),
    };
    return { parts: [...stable, ...recall, ...p.tailParts, ...p.userParts], compacted: run !== undefined };
  }

  /**
   * `appendCompaction: "cost"`: compact before the budget once a longer run would cost more than
   * a compaction. A run that grows g tokens a call re-reads its growth at the cached price on
   * every call, while a compaction re-sends C tokens (the kept turns, hot state, checkpoint) at
   * the uncached price: the average cost per call is lowest for runs of sqrt(2·1.25·C / (0.1·g))
   * calls.
   */
  async #cheaperToCompact(
    run: AppendRun,
    stable: PromptPart[],
    history: readonly HistoryMessage[],
    layout: HistoryLayout,
    counter: TokenCounter,
  ): Promise<boolean> {
    if (this.#core.appendCompaction !== "cost" || run.calls < 1) return false;
    const growth = (sum(stable) - run.startTokens) / (run.calls + 1);
    if (growth <= 0) return false;
    const kept = await this.#core.keptTurnParts(
      history,
      layout,
      Math.min(this.#core.keepTurns, layout.turns.length),
      counter,
    );
    const rewrite =
      sum(kept) + 250 + sum(this.#fixedOf(stable)) + sum(stable.filter((p) => p.kind === "hot_state").slice(0, 1));
    return compactionPays(this.#core.priceModel, run.calls, growth, rewrite);
  }

  /** The system, bootstrap and task parts of a prompt. */
  #fixedOf(parts: readonly PromptPart[]): PromptPart[] {
    return parts.filter((p) => p.kind === "system" || p.kind === "bootstrap" || p.kind === "task");
  }
}

function lastText(history: readonly HistoryMessage[], next: number): string {
  const m = history[next - 1];
  return m === undefined ? "" : `${m.role}\u0000${m.content}\u0000${JSON.stringify(m.tool_calls ?? [])}`;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}
