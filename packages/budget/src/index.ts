export {
  ENCODINGS,
  DEFAULT_ENCODING,
  type Encoding,
  type EncodingResolution,
  encodingForModel,
  isEncoding,
  resolveEncoding,
} from "./encodings.js";
export { DEFAULT_MAX_PIECE_CHARS, type SplitResult, splitForCounting } from "./split.js";
export {
  type BuiltinTokenizer,
  DEFAULT_TOKENIZER_IMPL,
  TOKENIZER_IMPLS,
  type Tokenizer,
  type TokenizerImpl,
  type TokenizerOptions,
  disposeAllTokenizers,
  emitUnknownModelWarning,
  getTokenizer,
  liveEncoderCount,
} from "./tokenizers.js";
export { type CountCacheStats, clearCountCache, countCacheStats } from "./cache.js";
export { type CountOptions, type CountResult, countTokens, defaultTokenizer, tryCountTokens } from "./count.js";
export {
  BUDGET_ENV,
  BUDGET_LIMITS,
  type BudgetConfig,
  type BudgetConfigInput,
  BudgetConfigSchema,
  DEFAULT_BUDGET,
  loadBudgetConfig,
  resolveBudgetConfig,
} from "./config.js";
export {
  type BudgetCheck,
  type BudgetMeasurements,
  MESSAGE_OVERHEAD_TOKENS,
  type MeasuredKey,
  type PromptBudgetInput,
  PromptBudgetInputSchema,
  type PromptBudgetReport,
  REPLY_PRIMING_TOKENS,
  checkBudget,
  checkPromptBudget,
} from "./check.js";
export {
  type MemorySink,
  type MetricsFileReport,
  type MetricsRecorder,
  type MetricsRecorderOptions,
  type MetricsSink,
  type PromptMetricsInput,
  buildPromptMetrics,
  callbackSink,
  createMetricsRecorder,
  jsonlSink,
  memorySink,
  readMetricsFile,
  regressionWarnings,
} from "./metrics.js";
export type { BudgetViolation, Cut, PromptMetrics } from "@artifact-refs/schema";
export { renderBarChart, niceTicks, shortenLabel, shortenLabels, type ChartSeries, type ChartSpec } from "./chart.js";
