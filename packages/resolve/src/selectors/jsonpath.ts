import { ArefError, type JsonPathSelector, type Selection } from "@artifact-refs/schema";
import { type JsonValue, exec as jsonPathExec } from "jsonpath-rfc9535";
import parseJsonPath from "jsonpath-rfc9535/parser";
import { fmtInt, safeCut } from "../text.js";
import { type SelectOptions, capOf, charsNote, selection } from "./common.js";
import { parseJsonPointer, resolveJsonPointer, toJsonPath } from "./json-pointer.js";

interface Hit {
  path: Array<string | number>;
  value: unknown;
}

/**
 * Values selected by an RFC 9535 JSONPath ($.data[*].id, filters like [?@.status=='failed'])
 * or an RFC 6901 JSON Pointer (/data/0). One value is printed as indented JSON; several as a
 * JSON array with one compact value per line, paged with `skip`. A single value too large for
 * the cap is cut, and `next` selects its members one by one.
 */
export function selectJsonPath(
  content: string,
  totalLines: number,
  selector: JsonPathSelector,
  options: SelectOptions,
): Selection {
  const cap = capOf(selector, options);
  const expr = selector.expr.trim();
  const isPointer = expr.startsWith("/") || expr.startsWith("#");
  if (!isPointer && !expr.startsWith("$")) {
    throw new ArefError(
      "INVALID_SELECTOR",
      `${JSON.stringify(expr)} is neither a JSONPath (starts with "$") nor a JSON Pointer (starts with "/")`,
      {
        hint: "e.g. $.data[0].id, $..name, $.items[?@.status=='failed'] or /data/0/id",
      },
    );
  }
  const tokens = isPointer ? parseJsonPointer(expr) : undefined;
  const descendants = isPointer ? 0 : checkJsonPath(expr);
  const doc = parseJson(content);
  if (descendants > 0) checkJsonPathCost(expr, doc, descendants, options.jsonPathWorkBudget ?? JSONPATH_WORK_BUDGET);

  let hits: Hit[];
  if (tokens) {
    const r = resolveJsonPointer(doc, tokens);
    hits = r.found
      ? [{ path: tokens.map((t, i) => (Array.isArray(pathParent(doc, tokens, i)) ? Number(t) : t)), value: r.value }]
      : [];
  } else {
    hits = [];
    try {
      jsonPathExec(doc as JsonValue, expr, (value, path) =>
        hits.push({ path: [...(path as Iterable<string | number>)], value }),
      );
    } catch (error) {
      throw invalidJsonPath(expr, error);
    }
  }

  const skip = selector.skip ?? 0;
  const stats = { results: hits.length, shown: 0, skipped: Math.min(skip, hits.length) };
  if (hits.length === 0) {
    return selection(selector, "", content, totalLines, { stats });
  }

  // One value: indented JSON; if too large, cut, and page on through its members.
  if (hits.length === 1 && skip === 0) {
    const hit = hits[0]!;
    const text = printJson(hit.value, 2);
    stats.shown = 1;
    if (text.length <= cap) return selection(selector, text, content, totalLines, { stats });
    const cut = text.slice(0, safeCut(text, cap));
    const isContainer = hit.value !== null && typeof hit.value === "object";
    const members = isContainer ? Object.keys(hit.value as object).length : 0;
    return selection(selector, cut, content, totalLines, {
      omitted: `${charsNote(text.length - cut.length)} of this ${describe(hit.value)} (over the ${charsNote(cap)} cap)`,
      ...(isContainer && members > 0
        ? {
            next: {
              mode: "jsonpath" as const,
              expr: `${toJsonPath(hit.path)}[*]`,
              ...(selector.maxChars === undefined ? {} : { maxChars: selector.maxChars }),
            },
          }
        : {}),
      stats,
    });
  }

  // Several values: a JSON array, one compact value per line, as many whole values as fit.
  const lines: string[] = [];
  let used = 2; // "[\n" ... "\n]" minus the joins, counted below
  let shown = 0;
  for (let i = skip; i < hits.length; i++) {
    const line = printJson(hits[i]!.value);
    const add = line.length + (lines.length > 0 ? 2 : 0) + (i === skip ? 2 : 0);
    if (used + add > cap) {
      if (shown === 0) {
        // The first value alone is over the cap: cut it so that paging moves on.
        lines.push(line.slice(0, safeCut(line, Math.max(0, cap - 4))));
        shown = 1;
      }
      break;
    }
    lines.push(line);
    used += add;
    shown++;
  }
  let text = `[\n${lines.join(",\n")}\n]`;
  if (text.length > cap) text = text.slice(0, safeCut(text, cap));
  stats.shown = shown;
  const remaining = hits.length - skip - shown;
  if (remaining <= 0) return selection(selector, text, content, totalLines, { stats });
  return selection(selector, text, content, totalLines, {
    omitted: `results ${fmtInt(skip + shown + 1)}-${fmtInt(hits.length)} of ${fmtInt(hits.length)} not shown (over the ${charsNote(cap)} cap)`,
    next: { ...selector, skip: skip + shown },
    stats,
  });
}

/** JSON text of a selected value; a value nested too deep for JSON.stringify's recursion is UNSUPPORTED, not a crash. */
function printJson(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? "null";
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new ArefError("UNSUPPORTED", "the selected JSON value is nested too deeply to print", {
      hint: "select a part further down with a longer path or a JSON Pointer (/0/0/0), or read this artifact with the range selector",
    });
  }
}

function pathParent(doc: unknown, tokens: string[], i: number): unknown {
  return resolveJsonPointer(doc, tokens.slice(0, i)).value;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return `array of ${fmtInt(value.length)} items`;
  if (value !== null && typeof value === "object") return `object with ${fmtInt(Object.keys(value).length)} keys`;
  return typeof value;
}

function parseJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ArefError("UNSUPPORTED", `the content is not JSON, so a JSONPath cannot select from it (${why})`, {
      hint: "use the grep or range selector on this artifact",
    });
  }
}

/**
 * Work budget of a JSONPath with descendant segments ('..'). The evaluator copies a node's
 * path for every node it visits, and each '..' visits every node below each node it starts
 * from, so the work grows like values × depth^('..' count): a 1,000-deep document and
 * `$..*..b` took seconds, a 512 KiB one (250k deep) would block for hours. Over the budget
 * the selector is refused (INVALID_SELECTOR) before any evaluation.
 */
export const JSONPATH_WORK_BUDGET = 50_000_000;

/** Values in the document and its nesting depth (iterative: deep documents are the point). */
function shapeOf(doc: unknown): { values: number; depth: number } {
  let values = 0;
  let depth = 0;
  const stack: Array<[unknown, number]> = [[doc, 1]];
  while (stack.length > 0) {
    const [value, d] = stack.pop()!;
    values++;
    if (d > depth) depth = d;
    if (value !== null && typeof value === "object")
      for (const child of Object.values(value)) stack.push([child, d + 1]);
  }
  return { values, depth };
}

function checkJsonPathCost(expr: string, doc: unknown, descendants: number, budget: number): void {
  const { values, depth } = shapeOf(doc);
  const work = values * depth ** descendants;
  if (work <= budget) return;
  throw new ArefError(
    "INVALID_SELECTOR",
    `JSONPath ${JSON.stringify(expr)} is too expensive for this document: ${descendants} descendant segment(s) ('..') over ${fmtInt(values)} values nested ${fmtInt(depth)} deep (estimated work ${work.toExponential(1)}, limit ${budget.toExponential(0)})`,
    {
      hint: "use fewer '..' segments or a path from the root ($.a.b[*].c), or read this artifact with the range or grep selector",
    },
  );
}

/** Rejects syntax errors, and the regex functions (they run on a backtracking engine). Returns the number of descendant segments. */
function checkJsonPath(expr: string): number {
  let ast: unknown;
  try {
    ast = parseJsonPath(expr);
  } catch (error) {
    throw invalidJsonPath(expr, error);
  }
  const fn = findFunction(ast, new Set(["match", "search"]));
  if (fn) {
    throw new ArefError(
      "UNSUPPORTED",
      `the JSONPath function ${fn}() is disabled: its regex would run on a backtracking engine, and regexes from a model are untrusted`,
      {
        hint: "filter with comparisons (==, <, &&) instead, or select the values and use the grep selector, which runs a linear-time engine",
      },
    );
  }
  return countNodes(ast, "DescendantSegment");
}

/** AST nodes of a type, anywhere (filter sub-queries included: they run once per candidate). */
function countNodes(node: unknown, type: string): number {
  if (Array.isArray(node)) return node.reduce((sum: number, child) => sum + countNodes(child, type), 0);
  if (node === null || typeof node !== "object") return 0;
  const rec = node as Record<string, unknown>;
  let n = rec.type === type ? 1 : 0;
  for (const value of Object.values(rec)) n += countNodes(value, type);
  return n;
}

function findFunction(node: unknown, names: Set<string>): string | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = findFunction(child, names);
      if (found) return found;
    }
    return undefined;
  }
  if (node === null || typeof node !== "object") return undefined;
  const rec = node as Record<string, unknown>;
  if (rec.type === "FunctionExpr" && typeof rec.name === "string" && names.has(rec.name)) return rec.name;
  for (const value of Object.values(rec)) {
    const found = findFunction(value, names);
    if (found) return found;
  }
  return undefined;
}

function invalidJsonPath(expr: string, error: unknown): ArefError {
  const why = error instanceof Error ? error.message : String(error);
  return new ArefError("INVALID_SELECTOR", `invalid JSONPath ${JSON.stringify(expr)}: ${why}`, {
    hint: "RFC 9535 syntax: $.a.b, $['key with space'], $.items[0], $.items[-1], $.items[0:5], $..name, $.items[?@.price < 10]",
    cause: error,
  });
}
