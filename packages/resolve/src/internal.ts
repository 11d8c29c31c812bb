/**
 * Everything the root export has, plus the helpers this package's own tests, benchmarks and
 * evaluation reach for: the safe regex compiler, JSON Pointer helpers, the
 * preview detectors and the reference-set evaluation. Not part of the public API and not in
 * package.json `exports` (`import { parseQuery } from "../src/internal.js"`).
 */
export * from "./index.js";
export { compileSafeRegex, type SafeRegex } from "./selectors/regex.js";
export { parseJsonPointer, resolveJsonPointer, toJsonPointer, toJsonPath } from "./selectors/json-pointer.js";
export { detectKind } from "./preview/detect.js";
export { outlineSymbols, type CodeSymbol } from "./preview/code.js";
export { visibleText } from "./preview/html.js";
export { testCounts, failingTests } from "./preview/test-output.js";
export { parseQuery, type ParsedQuery } from "./resolution/query.js";
export {
  evaluateReferenceSet,
  formatEvaluation,
  ReferenceSetSchema,
  type EvaluationReport,
  type QueryOutcome,
  type ReferenceSet,
} from "./resolution/evaluate.js";
