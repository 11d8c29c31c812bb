// Configuration
export {
  ContextConfigSchema,
  ExternalizeConfigSchema,
  FetchConfigSchema,
  ExecutionsConfigSchema,
  BootstrapConfigSchema,
  RecallConfigSchema,
  RedactionConfigSchema,
  ToolPolicySchema,
  SessionOverridesSchema,
  CONTEXT_ENV_VARS,
  DEFAULT_CONTEXT_CONFIG,
  loadContextConfig,
  parseContextConfig,
  contextConfigFromEnv,
  withSessionOverrides,
  type ContextConfig,
  type ContextConfigInput,
  type SessionOverrides,
  type ToolPolicy,
  type LoadContextConfigOptions,
} from "./config.js";

// Redaction
export {
  Redactor,
  redactSecrets,
  redactionMarker,
  BUILTIN_REDACTION_RULES,
  RedactionRuleSchema,
  type RedactionRule,
  type RedactionResult,
  type RedactorOptions,
} from "./redaction.js";

// Externalizer
export {
  Externalizer,
  LossReceiptSchema,
  type ExternalizerOptions,
  type ToolResultInput,
  type ExternalizedResult,
  type ExternalizeAction,
  type LossReceipt,
  type Deadline,
  type Decision,
  type PreparedResult,
  type StashedResult,
} from "./externalizer.js";
export {
  ARTIFACTS_GET_TOOL_NAME,
  fetchHint,
  modelHintFor,
  renderModelHint,
  type ModelHint,
  type HintExtras,
} from "./model-hint.js";
export { INJECTED_TAG, configureInjectedKey, useStoreInjectedKey, tagInjected, isInjected } from "./injected.js";
export { defaultPreview, type PreviewFunction, type PreviewInput, type ContentPreview } from "./preview.js";

// Transcripts
export {
  parseTranscript,
  serializeTranscript,
  detectFormat,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
  type ParsedLine,
  type ParsedTranscript,
} from "./transcript/format.js";
export { TranscriptWriter, type TranscriptWriterOptions, type TranscriptEntryInput } from "./transcript/writer.js";
export {
  readTranscript,
  rehydrateTranscript,
  rehydrateEntry,
  toolResultValue,
  artifactRefOf,
  readTranscriptText,
  type Transcript,
  type RehydrateOptions,
  type RehydratedTranscript,
  type RehydrationError,
} from "./transcript/reader.js";

// artifacts_get and handles in arguments
export {
  ArtifactsGetTool,
  type ToolContent,
  type ToolDefinition,
  type ArtifactsGetOptions,
  type ArtifactsGetArgs,
  type ArtifactsGetAnswer,
  type ArtifactsGetResult,
  type ArtifactsGetError,
  type LoopGuardAnswer,
} from "./artifacts-get.js";
export {
  migrateTranscript,
  MigrationReportSchema,
  type MigrateOptions,
  type MigrationReport,
  type MigrationSkip,
} from "./transcript/migrate.js";

// What the SDK adapters share
export {
  SessionRefs,
  toolArgs,
  type SessionRefsOptions,
  type ToolOutputSource,
  type ToolOutputCall,
  type ToolResultListener,
} from "./session-refs.js";

// Execution records (docs/ARCHITECTURE.md, "Executions")
export {
  ExecutionContext,
  ExecutionContextShapeSchema,
  type ExecutionContextOptions,
  type ExecutionContextShape,
  type ExecutionState,
  type RecordExecutionInput,
  type ContextMessage,
  type ReferenceCandidate,
  type ReferenceResolver,
} from "./executions.js";

// Prompt assembler (assembler/); checkpoint packs and layout stay in ./internal.js
export {
  PromptAssembler,
  renderMessage,
  PRICE_MODELS,
  DEFAULT_PRICE_MODEL,
  resolvePriceModel,
  type PromptAssemblerOptions,
  type PriceModel,
  type PriceModelName,
} from "./assembler/index.js";
export {
  DEFAULT_BUDGETS,
  type PromptRole,
  type HistoryMessage,
  type PartKind,
  type ModelMessage,
  type PromptPart,
  type TokenCounter,
  type AssemblerBudgets,
  type AssemblyStrategy,
  type BootstrapFile,
  type RecallItem,
  type AssembleInput,
  type AssembledPrompt,
  type CheckpointInfo,
} from "./assembler/index.js";
// What replay tools (@artifact-refs/analyze) build on: per-call accounting, history layout, hot-state deltas
export {
  callCost,
  commonPrefixLength,
  memoCounter,
  prefixTokens,
  actionLine,
  layoutHistory,
  stableJson,
  storedForm,
  applyHotStateDelta,
  HOT_STATE_PREFIX,
  HOT_STATE_UPDATE_PREFIX,
  type CallCost,
  type CountedPart,
  type CheckpointMessage,
} from "./assembler/index.js";
export {
  resolveArtifactArgs,
  artifactArgModes,
  stripArtifactAnnotations,
  type ArtifactArgMode,
  type ResolvedHandle,
  type ResolveArgsResult,
  type ResolveArgsOptions,
} from "./arg-handles.js";
export {
  collectReferences,
  pruneTranscript,
  renderReferenceIndex,
  type PruneOptions,
  type PruneResult,
} from "./transcript/prune.js";
export { historyFromTranscript } from "./transcript/history.js";
export { readCheckpoint, type CheckpointPack } from "./assembler/index.js";
export { modelErrorHint, renderModelError } from "./model-errors.js";
export { renderGetAnswerText, modelTextOf, artifactsGetText } from "./model-text.js";
export { fitTurns, maxInputCharsOf, type TurnShape } from "./fit-turns.js";
export { checkMessageList, partsToHistory, partsText, toolCallInput, type MessagePart } from "./provider-messages.js";
