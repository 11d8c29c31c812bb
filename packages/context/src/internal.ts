/**
 * Everything the root export has, plus the internals this package's own tests and benchmarks
 * reach for: payload encoding, transcript details, the handle pattern in text, the
 * assembler's checkpoint/layout/pricing modules and the analyze replay. Not part of the public
 * API and not in package.json `exports`: only this package's tests and benchmarks import it
 * (`import { serializePayload } from "../src/internal.js"`).
 */
export * from "./index.js";
export { buildRedactor } from "./externalizer.js";
export { INJECTED_TAG_PREFIX, INJECTED_KEY_STORE_KEY, stripInjectedTag } from "./injected.js";
export {
  serializePayload,
  deserializePayload,
  countLines,
  type PayloadEncoding,
  type SerializedPayload,
} from "./payload.js";
export {
  parseTranscriptText,
  loadPayloadText,
  REFERENCE_DETAIL_KEYS,
} from "./transcript/reader.js";
export { artifactsGetDefinition, parseArtifactsGetArgs } from "./artifacts-get.js";
export { HANDLE_IN_TEXT_RE } from "./arg-handles.js";
export { ExecutionStateSchema, summarizeExecution } from "./executions.js";
export * from "./assembler/index.js";
export { ARTIFACTS_LIST_TOOL_NAME } from "./model-errors.js";
export { renderHintText } from "./model-text.js";
export { olderOutputStub } from "./fit-turns.js";
