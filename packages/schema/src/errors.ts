/**
 * One error class with a stable `code`. Recognisable across duplicate copies of
 * this package (two versions in one node_modules tree) through a global brand,
 * not only `instanceof`: use `isArefError(e)`.
 */
export const ERROR_CODES = [
  "NOT_FOUND",
  "INVALID_HANDLE",
  "AMBIGUOUS_REF",
  "TOO_LARGE",
  "INTEGRITY",
  "EXPIRED",
  "BUDGET_EXCEEDED",
  "INVALID_INPUT",
  "INVALID_SELECTOR",
  "REGEX_TIMEOUT",
  "CORRUPT_METADATA",
  "UNKNOWN_SESSION",
  "READ_ONLY",
  "PERMISSION_DENIED",
  "IO_ERROR",
  "CONFLICT",
  "UNAVAILABLE",
  "DEADLINE_EXCEEDED",
  "CONFIG_INVALID",
  "TOKENIZER_FAILED",
  "UNSUPPORTED",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "RATE_LIMITED",
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const BRAND = Symbol.for("artifact-refs.error");

export interface ArefErrorOptions {
  /** What the user can do about it. Shown after the message. */
  hint?: string;
  /** Structured details (candidates of an ambiguous ref, sizes, paths). Must be JSON-serialisable. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

export class ArefError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  declare readonly [BRAND]: true;

  constructor(code: ErrorCode, message: string, options: ArefErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ArefError";
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
    Object.defineProperty(this, BRAND, { value: true, enumerable: false });
  }

  /** The JSON shape used by `--json` receipts and the HTTP API. */
  toJSON(): { code: ErrorCode; message: string; hint?: string; details?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/** True for an ArefError from any copy of this package. */
export function isArefError(value: unknown): value is ArefError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** True when `value` is an ArefError with the given code. */
export function hasErrorCode(value: unknown, code: ErrorCode): value is ArefError {
  return isArefError(value) && value.code === code;
}
