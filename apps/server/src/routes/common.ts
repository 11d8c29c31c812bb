import { z } from "zod";
import { ErrorReceiptSchema } from "@artifact-refs/schema";
import type { ResponseDoc } from "../route.js";

const err = (description: string): ResponseDoc => ({ description, schema: ErrorReceiptSchema });

/** The error responses every authenticated route may give, all in the error receipt shape. */
export const ERROR_RESPONSES: Record<number, ResponseDoc> = {
  400: err("invalid input (params, query, body or selector)"),
  401: err("missing or unknown bearer token"),
  403: err("the token may not use this session"),
  404: err("no such artifact or session"),
  409: err("ambiguous short ref"),
  413: err("body or content over the size limit"),
  415: err("wrong content type"),
  429: err("rate limited"),
};

/** Paging of session records: the newest `limit` before the cursor `before` (a previous page's `before`). */
export const PageQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1_000).optional(),
    before: z
      .string()
      .regex(/^\d{13}-[0-9a-f]{6}-[0-9a-f]{8}$/, "before must be the cursor a previous page returned")
      .optional(),
  })
  .strict();
