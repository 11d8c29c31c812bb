/**
 * Everything the root export has, plus the internals this package's own tests and benchmarks
 * reach for: payload encoding, transcript details, handle resolution in tool arguments, the
 * assembler's checkpoint/layout/pricing modules and the analyze replay. Not part of the public
 * API and not in package.json `exports`: only this package's tests and benchmarks import it
 * (`import { serializePayload } from "../src/internal.js"`).
 */
export * from "./index.js";
export { buildRedactor } from "./externalizer.js";
export { modelHintFor, renderModelHint } from "./model-hint.js";
export { INJECTED_TAG_PREFIX, stripInjectedTag } from "./injected.js";
export {
  serializePayload,
  deserializePayload,
  sniffTextMime,
  countLines,
  type PayloadEncoding,
  type SerializedPayload,
} from "./payload.js";
export {
  parseTranscriptText,
  rehydrateEntry,
  toolResultValue,
  loadPayloadText,
  REFERENCE_DETAIL_KEYS,
} from "./transcript/reader.js";
export { artifactsGetDefinition, parseArtifactsGetArgs } from "./artifacts-get.js";
export {
  resolveArtifactArgs,
  artifactArgModes,
  stripArtifactAnnotations,
  HANDLE_IN_TEXT_RE,
  type ArtifactArgMode,
  type ResolvedHandle,
  type ResolveArgsResult,
  type ResolveArgsOptions,
} from "./arg-handles.js";
export { ExecutionStateSchema, summarizeExecution } from "./executions.js";
export * from "./assembler/index.js";
export * from "./analyze/index.js";
export {
  collectReferences,
  pruneTranscript,
  renderReferenceIndex,
  type PruneOptions,
  type PruneResult,
} from "./transcript/prune.js";
export { historyFromTranscript } from "./transcript/history.js";
export { ARTIFACTS_LIST_TOOL_NAME } from "./model-errors.js";
export { renderHintText } from "./model-text.js";
export { olderOutputStub } from "./fit-turns.js";
