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
