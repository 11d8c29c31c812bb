/**
 * Everything the root export has, plus the helpers this package's own tests, benchmarks and
 * evaluation reach for: JSON Pointer helpers, the preview detectors and the query parser. Not part of the public API and not in
 * package.json `exports` (`import { parseQuery } from "../src/internal.js"`).
 */
export * from "./index.js";
export { parseJsonPointer, resolveJsonPointer, toJsonPointer, toJsonPath } from "./selectors/json-pointer.js";
export { detectKind } from "./preview/detect.js";
export { outlineSymbols, type CodeSymbol } from "./preview/code.js";
export { visibleText } from "./preview/html.js";
export { testCounts, failingTests } from "./preview/test-output.js";
export { parseQuery, type ParsedQuery } from "./resolution/query.js";
export { SEMANTIC_MARGIN, SEMANTIC_MIN } from "./resolution/semantic.js";
