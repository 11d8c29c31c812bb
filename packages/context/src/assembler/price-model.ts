import { ArefError } from "@artifact-refs/schema";

/**
 * How a provider bills prompt tokens, relative to an uncached input token (1.0): a prefix that
 * is byte-identical to the previous call's prompt is read from the cache at `cachedRead`; the
 * rest is written at `write` (the cache write, or plain input without caching).
 */
export interface PriceModel {
  name: string;
  cachedRead: number;
  write: number;
}

/** Named presets: Anthropic (0.1× read, 1.25× write; the default), OpenAI (0.5×, 1.0×), no caching. */
export const PRICE_MODELS: Readonly<Record<"anthropic" | "openai" | "none", PriceModel>> = Object.freeze({
  anthropic: Object.freeze({ name: "anthropic", cachedRead: 0.1, write: 1.25 }),
  openai: Object.freeze({ name: "openai", cachedRead: 0.5, write: 1.0 }),
  none: Object.freeze({ name: "none", cachedRead: 1.0, write: 1.0 }),
});

export type PriceModelName = keyof typeof PRICE_MODELS;

export const DEFAULT_PRICE_MODEL: PriceModel = PRICE_MODELS.anthropic;

/** A preset by name, or a custom `{cachedRead, write}` (validated: 0 < cachedRead ≤ write). */
export function resolvePriceModel(model: PriceModelName | string | Partial<PriceModel> | undefined): PriceModel {
  if (model === undefined) return DEFAULT_PRICE_MODEL;
  if (typeof model === "string") {
    const preset = (PRICE_MODELS as Record<string, PriceModel>)[model.toLowerCase()];
    if (!preset)
      throw new ArefError("CONFIG_INVALID", `unknown price model ${JSON.stringify(model)}`, {
        hint: `use one of ${Object.keys(PRICE_MODELS).join(", ")} or {cachedRead, write}`,
      });
    return preset;
  }
  const { cachedRead, write } = model;
  if (
    typeof cachedRead !== "number" ||
    typeof write !== "number" ||
    !(cachedRead > 0) ||
    !(write > 0) ||
    cachedRead > write ||
    !Number.isFinite(write)
  ) {
    throw new ArefError("CONFIG_INVALID", `price model needs 0 < cachedRead ≤ write, got ${JSON.stringify(model)}`);
  }
  return { name: model.name ?? "custom", cachedRead, write };
}

/** Whether a cached prefix is cheaper than sending it again (then `append` pays off). */
export function cachePays(model: PriceModel): boolean {
  return model.cachedRead < model.write;
}

/**
 * Whether to compact an append run now: a run growing `growth` tokens a call re-reads that
 * growth at `cachedRead` on every later call, while a compaction re-writes `rewrite` tokens
 * (kept turns, hot state, checkpoint) at `write`. Average cost per call is lowest for runs of
 * sqrt(2·write·rewrite / (cachedRead·growth)) calls; compact once the run is that long.
 */
export function compactionPays(model: PriceModel, runCalls: number, growth: number, rewrite: number): boolean {
  if (growth <= 0 || runCalls < 1) return false;
  const best = Math.sqrt((2 * model.write * rewrite) / (model.cachedRead * growth));
  return runCalls + 1 >= best;
}
