import type { z } from "zod";
import { ArefError, type ErrorCode } from "./errors.js";

/** Formats zod issues as "path: message; path: message" for error messages. */
export function formatIssues(error: z.ZodError, max = MAX_ISSUES): string {
  const shown = error.issues
    .slice(0, max)
    .map(
      (issue) =>
        `${issue.path.length > 0 ? issue.path.slice(0, 20).join(".") : "(root)"}: ${issue.message.slice(0, 300)}`,
    )
    .join("; ");
  return error.issues.length > max ? `${shown}; … and ${error.issues.length - max} more problem(s)` : shown;
}

/** Issues an error message and its details name at most (a 1 MB body must not make a 20 MB error). */
export const MAX_ISSUES = 20;

/**
 * Parses `value` with `schema` or throws an ArefError (INVALID_INPUT by default)
 * whose message names `what` and the zod path of each problem.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  code: ErrorCode = "INVALID_INPUT",
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ArefError(code, `invalid ${what}: ${formatIssues(result.error)}`, {
      details: {
        issues: result.error.issues
          .slice(0, MAX_ISSUES)
          .map((i) => ({ path: i.path.slice(0, 20).map(String), message: i.message.slice(0, 300) })),
        ...(result.error.issues.length > MAX_ISSUES ? { issues_total: result.error.issues.length } : {}),
      },
    });
  }
  return result.data;
}
