import type { ErrorCode } from "@artifact-refs/schema";

/**
 * The aref exit codes: one table for the whole CLI (README and `aref --help` print it).
 * Every ArefError code maps to exactly one of them; the compiler checks the map is complete.
 */
export const EXIT = {
  OK: 0,
  INTERNAL: 1,
  /** fetch --grep/--jsonpath found nothing (like grep). */
  NO_MATCH: 1,
  USAGE: 2,
  NOT_FOUND: 3,
  INVALID: 4,
  INTEGRITY: 5,
  TOO_LARGE: 6,
  STORAGE: 7,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_OF: Record<ErrorCode, ExitCode> = {
  NOT_FOUND: EXIT.NOT_FOUND,
  UNKNOWN_SESSION: EXIT.NOT_FOUND,
  EXPIRED: EXIT.NOT_FOUND,
  INVALID_HANDLE: EXIT.INVALID,
  INVALID_INPUT: EXIT.INVALID,
  AMBIGUOUS_REF: EXIT.INVALID,
  INVALID_SELECTOR: EXIT.INVALID,
  REGEX_TIMEOUT: EXIT.INVALID,
  CONFIG_INVALID: EXIT.INVALID,
  UNSUPPORTED: EXIT.INVALID,
  INTEGRITY: EXIT.INTEGRITY,
  CORRUPT_METADATA: EXIT.INTEGRITY,
  TOO_LARGE: EXIT.TOO_LARGE,
  BUDGET_EXCEEDED: EXIT.TOO_LARGE,
  TOKENIZER_FAILED: EXIT.TOO_LARGE,
  READ_ONLY: EXIT.STORAGE,
  PERMISSION_DENIED: EXIT.STORAGE,
  IO_ERROR: EXIT.STORAGE,
  UNAVAILABLE: EXIT.STORAGE,
  CONFLICT: EXIT.STORAGE,
  DEADLINE_EXCEEDED: EXIT.STORAGE,
  UNAUTHORIZED: EXIT.STORAGE,
  FORBIDDEN: EXIT.STORAGE,
  RATE_LIMITED: EXIT.STORAGE,
  INTERNAL: EXIT.INTERNAL,
};

/** The error codes that exit with `exit`, in the order of EXIT_CODE_OF (so the table can never miss one). */
const codesOf = (exit: ExitCode) =>
  Object.entries(EXIT_CODE_OF)
    .filter(([, e]) => e === exit)
    .map(([code]) => code)
    .join(", ");

/** Rows of the exit-code table, for `--help` and the README. */
export const EXIT_CODE_TABLE: ReadonlyArray<readonly [ExitCode, string]> = [
  [EXIT.OK, "success"],
  [
    EXIT.INTERNAL,
    "no match for `fetch --grep`/`--jsonpath` (like grep); otherwise an unexpected internal error: INTERNAL (a bug: please report it)",
  ],
  [EXIT.USAGE, "usage error: unknown command or flag, bad flag value, missing argument"],
  [EXIT.NOT_FOUND, `not found: ${codesOf(EXIT.NOT_FOUND)}`],
  [EXIT.INVALID, `invalid input: ${codesOf(EXIT.INVALID)}`],
  [EXIT.INTEGRITY, `integrity: ${codesOf(EXIT.INTEGRITY)}, or \`verify\` found unrepaired problems`],
  [EXIT.TOO_LARGE, `too large / over budget: ${codesOf(EXIT.TOO_LARGE)}`],
  [
    EXIT.STORAGE,
    `storage or server unavailable, refused or busy: ${codesOf(EXIT.STORAGE)} (also a --store directory that does not exist, for commands that only read)`,
  ],
];

export function exitCodeOf(code: ErrorCode): ExitCode {
  return EXIT_CODE_OF[code] ?? EXIT.INTERNAL;
}
