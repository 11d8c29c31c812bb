import { z } from "zod";

/** Default and hard caps for bounded fetch (docs/ARCHITECTURE.md §references and §sidecar). */
export const DEFAULT_FETCH_MAX_CHARS = 8_000;
export const HARD_FETCH_MAX_CHARS = 100_000;

const maxChars = z.number().int().min(1).max(HARD_FETCH_MAX_CHARS).optional();

export const HeadTailSelectorSchema = z
  .object({
    mode: z.literal("headtail"),
    /** Lines from the start; with tail unset, the cap is split between head and tail. */
    head: z.number().int().min(0).max(1_000_000).optional(),
    tail: z.number().int().min(0).max(1_000_000).optional(),
    maxChars,
  })
  .strict();

export const GrepSelectorSchema = z
  .object({
    mode: z.literal("grep"),
    pattern: z.string().min(1).max(1_000),
    ignoreCase: z.boolean().optional(),
    context: z.number().int().min(0).max(100).optional(),
    maxMatches: z.number().int().min(1).max(10_000).optional(),
    /** Skip this many matches (paging: the answer says which skip gets the next ones). */
    skip: z.number().int().min(0).optional(),
    maxChars,
  })
  .strict();

export const RangeSelectorSchema = z
  .object({
    mode: z.literal("range"),
    /** 1-based first line, inclusive. */
    start: z.number().int().min(1),
    /** 1-based last line, inclusive; absent = as far as the cap allows. */
    end: z.number().int().min(1).optional(),
    /** 0-based char offset into the first line: continues a line longer than the cap. */
    offset: z.number().int().min(0).optional(),
    maxChars,
  })
  .strict()
  .refine((s) => s.end === undefined || s.end >= s.start, { message: "range end must be >= start", path: ["end"] });

export const JsonPathSelectorSchema = z
  .object({
    mode: z.literal("jsonpath"),
    /** A JSONPath expression ($.a.b[0]) or a JSON Pointer (/a/b/0). */
    expr: z.string().min(1).max(1_000),
    /** Skip this many results (paging: the answer says which skip gets the next ones). */
    skip: z.number().int().min(0).optional(),
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
