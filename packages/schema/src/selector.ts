import { z } from "zod";

/** Default and hard caps for bounded fetch (docs/ARCHITECTURE.md §references and §sidecar). */
export const DEFAULT_FETCH_MAX_CHARS = 8_000;
export const HARD_FETCH_MAX_CHARS = 100_000;
/**
 * Largest line number, char offset or count of matches/results to skip a selector may name:
 * past any artifact a store holds (a real bound, so that no schema derived from this one
 * carries ±2^53 bounds).
 */
export const MAX_SELECTOR_POSITION = 1_000_000_000_000;
/** Largest head/tail line count and grep maxMatches. */
export const MAX_SELECTOR_LINES = 1_000_000;
export const MAX_SELECTOR_MATCHES = 10_000;
/** Longest grep pattern or JSONPath expression. */
export const MAX_SELECTOR_EXPR_CHARS = 1_000;

// Every surface (the artifacts_get tool's JSON schema, the MCP input schema, the HTTP query, the
// CLI flags, the MCP resource URI) derives from the schemas below: their fields, bounds and
// descriptions are written once, here.
const position = (min: number) => z.number().int().min(min).max(MAX_SELECTOR_POSITION);
const maxChars = z
  .number()
  .int()
  .min(1)
  .max(HARD_FETCH_MAX_CHARS)
  .optional()
  .describe("cap of the returned text in chars (never above the surface's cap)");
const skip = position(0)
  .optional()
  .describe("skip this many matches or results (paging: the answer's next selector says how many)");

export const HeadTailSelectorSchema = z
  .object({
    mode: z.literal("headtail"),
    /** Lines from the start; with tail unset, the cap is split between head and tail. */
    head: z.number().int().min(0).max(MAX_SELECTOR_LINES).optional().describe("lines from the start"),
    tail: z.number().int().min(0).max(MAX_SELECTOR_LINES).optional().describe("lines from the end"),
    maxChars,
  })
  .strict();

export const GrepSelectorSchema = z
  .object({
    mode: z.literal("grep"),
    pattern: z.string().min(1).max(MAX_SELECTOR_EXPR_CHARS).describe("regular expression (RE2 syntax)"),
    ignoreCase: z.boolean().optional().describe("case-insensitive"),
    context: z.number().int().min(0).max(100).optional().describe("lines of context around each match"),
    maxMatches: z.number().int().min(1).max(MAX_SELECTOR_MATCHES).optional().describe("stop after this many matches"),
    /** Skip this many matches (paging: the answer says which skip gets the next ones). */
    skip,
    maxChars,
  })
  .strict();

export const RangeSelectorSchema = z
  .object({
    mode: z.literal("range"),
    /** 1-based first line, inclusive. */
    start: position(1).describe("first line (1-based, inclusive)"),
    /** 1-based last line, inclusive; absent = as far as the cap allows. */
    end: position(1).optional().describe("last line (inclusive); absent: as far as the cap allows"),
    /** 0-based char offset into the first line: continues a line longer than the cap. */
    offset: position(0)
      .optional()
      .describe("chars into the first line to start at (continues a line longer than the cap)"),
    maxChars,
  })
  .strict()
  .refine((s) => s.end === undefined || s.end >= s.start, { message: "range end must be >= start", path: ["end"] });

export const JsonPathSelectorSchema = z
  .object({
    mode: z.literal("jsonpath"),
    /** A JSONPath expression ($.a.b[0]) or a JSON Pointer (/a/b/0). */
    expr: z
      .string()
      .min(1)
      .max(MAX_SELECTOR_EXPR_CHARS)
      .describe("a JSONPath ($.a.b[0], RFC 9535) or a JSON Pointer (/a/b/0)"),
    /** Skip this many results (paging: the answer says which skip gets the next ones). */
    skip,
    maxChars,
  })
  .strict();

export const SelectorSchema = z.discriminatedUnion("mode", [
  HeadTailSelectorSchema,
  GrepSelectorSchema,
  RangeSelectorSchema,
  JsonPathSelectorSchema,
]);
export type Selector = z.infer<typeof SelectorSchema>;
export type HeadTailSelector = z.infer<typeof HeadTailSelectorSchema>;
export type GrepSelector = z.infer<typeof GrepSelectorSchema>;
export type RangeSelector = z.infer<typeof RangeSelectorSchema>;
export type JsonPathSelector = z.infer<typeof JsonPathSelectorSchema>;
export type SelectorMode = Selector["mode"];

const MODE_SCHEMAS = {
  headtail: HeadTailSelectorSchema,
  grep: GrepSelectorSchema,
  range: RangeSelectorSchema,
  jsonpath: JsonPathSelectorSchema,
} as const;

/** A selector field other than `mode` (head, pattern, start, offset, skip, maxChars, ...). */
export type SelectorField = {
  [M in SelectorMode]: Exclude<keyof Extract<Selector, { mode: M }>, "mode">;
}[SelectorMode];

/** The selector modes, headtail first (the default). */
export const SELECTOR_MODES = Object.keys(MODE_SCHEMAS) as [SelectorMode, ...SelectorMode[]];

/** The fields each mode takes, read from its schema. */
export const SELECTOR_FIELDS_BY_MODE: { readonly [M in SelectorMode]: readonly SelectorField[] } = {
  headtail: fieldsOf("headtail"),
  grep: fieldsOf("grep"),
  range: fieldsOf("range"),
  jsonpath: fieldsOf("jsonpath"),
};

function fieldsOf(mode: SelectorMode): SelectorField[] {
  return Object.keys(MODE_SCHEMAS[mode].shape).filter((k): k is SelectorField => k !== "mode");
}

/** The modes a field applies to. */
export function selectorFieldModes(field: SelectorField): SelectorMode[] {
  return SELECTOR_MODES.filter((mode) => SELECTOR_FIELDS_BY_MODE[mode].includes(field));
}

/**
 * Every selector field of every mode, once: grep's, range's, headtail's, jsonpath's (the order the
 * surfaces have always listed them in), the fields of every mode (maxChars) last.
 */
export const SELECTOR_FIELDS: readonly SelectorField[] = (() => {
  const order: SelectorMode[] = ["grep", "range", "headtail", "jsonpath"];
  const all = [...new Set(order.flatMap((mode) => SELECTOR_FIELDS_BY_MODE[mode]))];
  const common = (f: SelectorField) => selectorFieldModes(f).length === SELECTOR_MODES.length;
  return [...all.filter((f) => !common(f)), ...all.filter(common)];
})();

function flatField(field: SelectorField): z.ZodOptional<z.ZodType> {
  const modes = selectorFieldModes(field);
  const source = MODE_SCHEMAS[modes[0]!].shape as Record<string, z.ZodType>;
  const schema = source[field]!;
  const base = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  const prefix = modes.length === SELECTOR_MODES.length ? "" : `${modes.join(", ")}: `;
  return base.optional().describe(`${prefix}${schema.description ?? field}`);
}

/**
 * The selector as one flat object: `mode` and every field of every mode (each optional, its
 * description saying which modes use it), bounds as in the mode schemas. It is the shape tool
 * schemas show a model (no oneOf to read); a value it accepts is then checked by SelectorSchema,
 * which rejects fields of another mode.
 */
export const SelectorFieldsSchema = z
  .object({
    mode: z
      .enum(SELECTOR_MODES)
      .describe(
        "headtail (the default): first and last lines; grep: lines matching a regex with context; range: a 1-based line window; jsonpath: values at a JSONPath or JSON Pointer",
      ),
    ...(Object.fromEntries(SELECTOR_FIELDS.map((f) => [f, flatField(f)])) as Record<
      SelectorField,
      z.ZodOptional<z.ZodType>
    >),
  })
  .strict()
  .describe("Which part to return (default headtail); the answer gives the selector for the next part");

/** SelectorFieldsSchema as a JSON schema (for tool definitions): real bounds, no $schema key. */
export function selectorJsonSchema(): Record<string, unknown> {
  const { $schema: _schema, ...json } = z.toJSONSchema(SelectorFieldsSchema) as Record<string, unknown>;
  return json;
}
