export { applySelector, parseSelector } from "./selectors/apply.js";
export { applySelectorToChunks, CHUNKED_JSONPATH_MAX_BYTES, type ChunkSource } from "./selectors/chunked.js";
export { type SelectOptions, DEFAULT_REGEX_TIME_LIMIT_MS } from "./selectors/common.js";
export { DEFAULT_GREP_CONTEXT, DEFAULT_GREP_MAX_MATCHES } from "./selectors/grep.js";
export { compileSafeRegex, type SafeRegex } from "./selectors/regex.js";
export { contentAsText, isBinaryBytes, looksBinary } from "./text.js";
export { parseSelectorFlags, type SelectorFlags } from "./selectors/flags.js";
export { preview, summarize, type SummarizeInputLike } from "./preview/preview.js";
export {
  type Preview,
  type PreviewKind,
  type PreviewOptions,
  DEFAULT_PREVIEW_MAX_CHARS,
} from "./preview/types.js";
export {
  resolveReferences,
  ResolutionSession,
  type Candidate,
  type Resolution,
  type ResolveOptions,
} from "./resolution/resolve.js";
export {
  evaluateReferenceSet,
  formatEvaluation,
  ReferenceSetSchema,
  type EvaluationReport,
  type QueryOutcome,
  type ReferenceSet,
} from "./resolution/evaluate.js";
export type { ExecutionLike } from "./resolution/executions.js";
export { executionText, SEMANTIC_WINDOW, type SemanticSimilarities } from "./resolution/semantic.js";
export {
  recall,
  RecallIndex,
  defaultRender,
  type RecallItem,
  type RecallOptions,
  type RecallResult,
  type RecalledItem,
} from "./recall.js";
