export * from "./types.js";
export {
  PromptAssembler,
  defaultStrategy,
  storedForm,
  PROVIDER_PROMPT_CACHING,
  type PromptAssemblerOptions,
} from "./assembler.js";
export {
  bootstrapBlock,
  DEFAULT_BOOTSTRAP_THRESHOLD_CHARS,
  DEFAULT_BOOTSTRAP_EXCERPT_CHARS,
  type BootstrapBlock,
  type BootstrapOptions,
} from "./bootstrap.js";
export {
  CHECKPOINT_SCHEMA,
  CheckpointPackSchema,
  CheckpointMessageSchema,
  buildCheckpointPack,
  writeCheckpoint,
  readCheckpoint,
  checkpointText,
  reachableFromCheckpoint,
  type CheckpointPack,
  type CheckpointMessage,
  type BuildCheckpointInput,
} from "./checkpoint.js";
export { layoutHistory, callNumber, type HistoryLayout } from "./layout.js";
export { renderMessage, stableJson, headTailExcerpt, actionLine } from "./render.js";
export {
  hotStateDelta,
  applyHotStateDelta,
  HOT_STATE_PREFIX,
  HOT_STATE_UPDATE_PREFIX,
  type HotStateDelta,
} from "./hot-state-delta.js";
export {
  PRICE_MODELS,
  DEFAULT_PRICE_MODEL,
  resolvePriceModel,
  cachePays,
  compactionPays,
  type PriceModel,
  type PriceModelName,
} from "./price-model.js";
export {
  callCost,
  prefixTokens,
  commonPrefixLength,
  memoCounter,
  CACHED_PRICE,
  UNCACHED_PRICE,
  type CountedPart,
  type CallCost,
} from "./accounting.js";
