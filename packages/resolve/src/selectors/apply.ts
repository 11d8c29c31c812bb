import { ArefError, type Selection, type Selector, SelectorSchema } from "@artifact-refs/schema";
import { contentAsText, lineTable } from "../text.js";
import type { SelectOptions } from "./common.js";
import { selectGrep } from "./grep.js";
import { selectHeadTail } from "./headtail.js";
import { selectJsonPath } from "./jsonpath.js";
import { selectRange } from "./range.js";

/** Parses and validates a selector (zod); INVALID_SELECTOR with the reasons when it is wrong. */
export function parseSelector(input: unknown): Selector {
  const parsed = SelectorSchema.safeParse(input ?? { mode: "headtail" });
  if (!parsed.success) {
    const reasons = parsed.error.issues.map((i) => `${i.path.join(".") || "selector"}: ${i.message}`).join("; ");
    throw new ArefError("INVALID_SELECTOR", `invalid selector: ${reasons}`, {
      hint: 'use {mode:"headtail"|"grep"|"range"|"jsonpath", ...}; e.g. {mode:"grep", pattern:"error", context:2}',
      details: { issues: parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    });
  }
  return parsed.data;
}

/**
 * Applies a bounded selector to an artifact's content. The result never holds more than the
 * cap (`selector.maxChars`, else `options.defaultMaxChars`, else 8,000 chars), says what was
 * left out, and gives the exact `next` selector that returns more.
 *
 * Throws ArefError: INVALID_SELECTOR (bad selector, bad regex, bad JSONPath, range outside the
 * content), REGEX_TIMEOUT (a grep over its time limit), UNSUPPORTED (binary content, JSONPath
 * on non-JSON, a disabled JSONPath function).
 */
export function applySelector(
  content: string | Uint8Array,
  selector?: Selector | unknown,
  options: SelectOptions = {},
): Selection {
  const sel = parseSelector(selector);
  const text = contentAsText(content);
  if (sel.mode === "jsonpath") {
    return selectJsonPath(text, lineTable(text).count, sel, options);
  }
  const table = lineTable(text);
  switch (sel.mode) {
    case "headtail":
      return selectHeadTail(text, table, sel, options);
    case "range":
      return selectRange(text, table, sel, options);
    case "grep":
      return selectGrep(text, table, sel, options);
  }
}
