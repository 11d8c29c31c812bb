import type { z } from "zod";
import { ArefError, type ErrorCode } from "./errors.js";

/** Formats zod issues as "path: message; path: message" for error messages. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
}

/**
 * Parses `value` with `schema` or throws an ArefError (INVALID_INPUT by default)
 * whose message names `what` and the zod path of each problem.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string, code: ErrorCode = "INVALID_INPUT"): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ArefError(code, `invalid ${what}: ${formatIssues(result.error)}`, {
      details: { issues: result.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    });
  }
  return result.data;
}
