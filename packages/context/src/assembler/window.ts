// The window strategy: every call builds the smallest prompt that fits (fixed parts, hot state,
// the checkpoint of what was left out, recall, the last turns), or sends the whole transcript as
// it came when that is not larger.
import { sum, type StrategyCore, type StrategyInput, type StrategyResult } from "./strategy.js";

/** One window prompt. */
export async function assembleWindow(core: StrategyCore, p: StrategyInput): Promise<StrategyResult> {
  const turns = p.layout.turns;
  // The checkpoint the omitted turns need: the current one's text, or a guess before the first.
  const checkpointTokens = (keep: number) => {
    const checkpoint = core.checkpoint();
    return turns.length > keep ? (checkpoint ? p.counter.count(checkpoint.text) + 40 : 200) : 0;
  };
  const { keep, kept, recall } = await core.cutToFit(p, checkpointTokens, true);
  const ckptPart = await core.checkpointFor(
    p.history,
    turns.slice(0, turns.length - keep).flat(),
    p.hotState,
    p.counter,
  );
  const parts = [...p.fixed, p.hotPart, ...ckptPart, ...recall, ...kept, ...p.tailParts, ...p.userParts];
  const verbatim = await core.verbatimParts(p);
  if (verbatim && sum(verbatim.stable) + sum(verbatim.volatile) <= sum(parts))
    return { parts: [...verbatim.stable, ...verbatim.volatile], compacted: false, verbatim: true };
  return { parts, compacted: false };
}
