import { z } from "zod";
import {
  ArefError,
  parseWith,
  ArtifactTypeSchema,
  HARD_FETCH_MAX_CHARS,
  MAX_LABEL_CHARS,
  MAX_REF_LENGTH,
  SessionIdSchema,
  type Selector,
  SelectorSchema,
} from "@artifact-refs/schema";

/** A reference as accepted in a path: handle, full id, short ref or hex prefix (parsed strictly later). */
export const RefParamSchema = z
  .string()
  .min(1)
  .max(MAX_REF_LENGTH)
  .describe("a handle (aref:v1:sha256:<64 hex>), a 64-hex id, or a short ref art:<12+ hex>");

export const RefParams = z.object({ ref: RefParamSchema }).strict();
export const SessionParams = z.object({ id: SessionIdSchema }).strict();
export const SessionRefParams = z.object({ id: SessionIdSchema, ref: RefParamSchema }).strict();
export const ContextParams = z.object({ session_id: SessionIdSchema }).strict();

/** A decimal integer query parameter: digits only (no `0x10`, ` 5`, `1e3`, `+5`), then range-checked. */
const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^(?:0|-?[1-9][0-9]{0,15})$/, "must be a decimal integer (digits only)")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** Bounded fetch selector in query parameters: ?mode=grep&pattern=ERROR&context=2 (headtail by default). */
export const FetchQuerySchema = z
  .object({
    session: SessionIdSchema.optional().describe(
      "resolve short refs within this session; session-scoped tokens must give it",
    ),
    mode: z.enum(["headtail", "grep", "range", "jsonpath"]).default("headtail"),
    head: intParam(0, 1_000_000).optional(),
    tail: intParam(0, 1_000_000).optional(),
    pattern: z.string().min(1).max(1_000).optional(),
    ignoreCase: z.stringbool().optional(),
    context: intParam(0, 100).optional(),
    maxMatches: intParam(1, 10_000).optional(),
    skip: intParam(0, 1_000_000_000).optional(),
    start: intParam(1, 1_000_000_000).optional(),
    end: intParam(1, 1_000_000_000).optional(),
    expr: z.string().min(1).max(1_000).optional(),
    maxChars: intParam(1, HARD_FETCH_MAX_CHARS).optional(),
  })
  .strict();
export type FetchQuery = z.infer<typeof FetchQuerySchema>;

const SELECTOR_PARAMS: Record<Selector["mode"], Array<keyof FetchQuery>> = {
  headtail: ["head", "tail"],
  grep: ["pattern", "ignoreCase", "context", "maxMatches", "skip"],
  range: ["start", "end"],
  jsonpath: ["expr"],
};

/**
 * The selector a fetch query names, as a plain object for SelectorSchema to validate,
 * and the parameters given that do not belong to its mode (an error, never ignored).
 */
export function selectorFromQuery(q: FetchQuery): { selector: Record<string, unknown>; stray: string[] } {
  const own = SELECTOR_PARAMS[q.mode];
  const selector: Record<string, unknown> = { mode: q.mode };
  const stray: string[] = [];
  for (const [key, value] of Object.entries(q)) {
    if (value === undefined || key === "session" || key === "mode") continue;
    if (key === "maxChars" || own.includes(key as keyof FetchQuery)) selector[key] = value;
    else stray.push(key);
  }
  return { selector, stray };
}

/** The validated selector of a fetch query; INVALID_SELECTOR for parameters of another mode or bad values. */
export function selectorOf(query: FetchQuery | Omit<FetchQuery, "session">): Selector {
  const { selector, stray } = selectorFromQuery(query as FetchQuery);
  if (stray.length > 0) {
    throw new ArefError(
      "INVALID_SELECTOR",
      `${stray.join(", ")} ${stray.length === 1 ? "does" : "do"} not apply to mode=${query.mode}`,
      {
        hint: "headtail: head, tail; grep: pattern, ignoreCase, context, maxMatches, skip; range: start, end; jsonpath: expr; all: maxChars",
      },
    );
  }
  return parseWith(SelectorSchema, selector, "selector", "INVALID_SELECTOR");
}

export const StashQuerySchema = z
  .object({
    session: SessionIdSchema.optional(),
    label: z.string().min(1).max(MAX_LABEL_CHARS).optional(),
    type: ArtifactTypeSchema.optional(),
    mime: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\x21-\x7e]+$/)
      .optional(),
    ttl_ms: intParam(1, 10 * 365 * 24 * 3600 * 1000).optional(),
  })
  .strict();

export const StashJsonBodySchema = z
  .object({
    content: z.string().describe("the content: UTF-8 text, or base64 with encoding=base64"),
    encoding: z.enum(["utf-8", "base64"]).default("utf-8"),
    session: SessionIdSchema.optional(),
    label: z.string().min(1).max(MAX_LABEL_CHARS).optional(),
    type: ArtifactTypeSchema.optional(),
    mime: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[\x21-\x7e]+$/)
      .optional(),
    summary: z.string().max(500).optional(),
    ttl_ms: z
      .number()
      .int()
      .min(1)
      .max(10 * 365 * 24 * 3600 * 1000)
      .optional(),
  })
  .strict();

export const ListQuerySchema = z.object({ include_expired: z.stringbool().optional() }).strict();

const ToolArgsSchema = z.record(z.string(), z.unknown()).default({});

export const ExecuteItemSchema = z
  .object({
    artifact_id: z.string().max(200).optional().describe("the UI artifact (form) that ran the tool"),
    artifact_type: z.string().max(100).default("toolform"),
    artifact_title: z.string().max(300).optional(),
    tool_name: z.string().min(1).max(200),
    tool_args: ToolArgsSchema,
    label: z.string().max(MAX_LABEL_CHARS).optional(),
  })
  .strict();
export type ExecuteItem = z.infer<typeof ExecuteItemSchema>;

/** The docs/ARCHITECTURE.md §executions execute request, or a batch: { session_id, batch: [items] }. */
export const ExecuteBodySchema = z.union([
  ExecuteItemSchema.extend({ session_id: SessionIdSchema, user_id: z.string().max(200).optional() }).strict(),
  z
    .object({
      session_id: SessionIdSchema,
      user_id: z.string().max(200).optional(),
      artifact_title: z.string().max(300).optional(),
      batch: z.array(ExecuteItemSchema).min(1).max(50),
    })
    .strict(),
]);
export type ExecuteBody = z.infer<typeof ExecuteBodySchema>;

export const ChatBodySchema = z
  .object({
    session_id: SessionIdSchema,
    message: z.string().min(1).max(20_000),
    /** Earlier turns, oldest first, for the provider. */
    history: z
      .array(z.object({ role: z.enum(["user", "assistant"]), content: z.string().max(100_000) }).strict())
      .max(100)
      .default([]),
  })
  .strict();
export type ChatBody = z.infer<typeof ChatBodySchema>;

export { SelectorSchema };
