export { applySelector, parseSelector } from "./selectors/apply.js";
export { type SelectOptions, DEFAULT_REGEX_TIME_LIMIT_MS } from "./selectors/common.js";
export { DEFAULT_GREP_CONTEXT, DEFAULT_GREP_MAX_MATCHES } from "./selectors/grep.js";
export { compileSafeRegex, type SafeRegex } from "./selectors/regex.js";
export { parseJsonPointer, resolveJsonPointer, toJsonPointer, toJsonPath } from "./selectors/json-pointer.js";
export { contentAsText, isBinaryBytes, looksBinary } from "./text.js";
export { parseSelectorFlags, type SelectorFlags } from "./selectors/flags.js";
