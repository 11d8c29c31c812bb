import { z } from "zod";
import {
  ArefError,
  parseWith,
  ArtifactTypeSchema,
  MAX_LABEL_CHARS,
  MAX_REF_LENGTH,
  SELECTOR_FIELDS,
  SELECTOR_FIELDS_BY_MODE,
  SELECTOR_MODES,
  SessionIdSchema,
  type Selector,
  type SelectorField,
  SelectorFieldsSchema,
  SelectorSchema,
  selectorFieldModes,
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

/** One selector field as a query parameter: numbers as decimal digits within the field's bounds, booleans as words. */
function queryParam(field: SelectorField): z.ZodType {
  const schema = SelectorFieldsSchema.shape[field].unwrap();
  if (schema instanceof z.ZodNumber) return intParam(schema.minValue ?? 0, schema.maxValue ?? 0).optional();
  if (schema instanceof z.ZodBoolean) return z.stringbool().optional();
  return schema.optional();
}

/**
 * Bounded fetch selector in query parameters: ?mode=grep&pattern=ERROR&context=2 (headtail by
 * default); the parameters are the selector's fields (SelectorFieldsSchema), so that every `next`
 * selector an answer gives can be sent back as it is.
 */
export const FetchQuerySchema = z
  .object({
    session: SessionIdSchema.optional().describe(
      "resolve short refs within this session; session-scoped tokens must give it",
    ),
    mode: z.enum(SELECTOR_MODES).default("headtail"),
    ...(Object.fromEntries(SELECTOR_FIELDS.map((f) => [f, queryParam(f)])) as Record<
      SelectorField,
      z.ZodOptional<z.ZodType<number | boolean | string, string>>
    >),
  })
  .strict();
export type FetchQuery = z.infer<typeof FetchQuerySchema>;

/** Which parameters go with which mode (the hint of a stray one, and the fetch routes' description). */
export const SELECTOR_PARAMS_HINT = [
  ...SELECTOR_MODES.map(
    (mode) =>
      `${mode}: ${SELECTOR_FIELDS_BY_MODE[mode].filter((f) => selectorFieldModes(f).length < SELECTOR_MODES.length).join(", ")}`,
  ),
  `all: ${SELECTOR_FIELDS.filter((f) => selectorFieldModes(f).length === SELECTOR_MODES.length).join(", ")}`,
].join("; ");

/**
 * The selector a fetch query names, as a plain object for SelectorSchema to validate,
 * and the parameters given that do not belong to its mode (an error, never ignored).
 */
export function selectorFromQuery(q: FetchQuery): { selector: Record<string, unknown>; stray: string[] } {
  const own: readonly string[] = SELECTOR_FIELDS_BY_MODE[q.mode];
  const selector: Record<string, unknown> = { mode: q.mode };
  const stray: string[] = [];
  for (const [key, value] of Object.entries(q)) {
    if (value === undefined || key === "session" || key === "mode") continue;
    if (own.includes(key)) selector[key] = value;
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
      { hint: SELECTOR_PARAMS_HINT },
    );
  }
  return parseWith(SelectorSchema, selector, "selector", "INVALID_SELECTOR");
}

/** A MIME type as a stash names it: printable ASCII without spaces, at most 200 characters. */
const MimeParamSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/);

export const StashQuerySchema = z
  .object({
    session: SessionIdSchema.optional(),
    label: z.string().min(1).max(MAX_LABEL_CHARS).optional(),
    type: ArtifactTypeSchema.optional(),
    mime: MimeParamSchema.optional(),
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
    mime: MimeParamSchema.optional(),
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
