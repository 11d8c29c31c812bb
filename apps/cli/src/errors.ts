import { ArefError, isArefError } from "@artifact-refs/schema";
import { CommanderError } from "commander";

/** A command line the CLI cannot run as given (exit 2). Commander's own parse errors are the same kind. */
export class UsageError extends Error {
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = "UsageError";
    this.hint = hint;
  }
}

const ERRNO_CODES: Record<string, { code: ArefError["code"]; what: string; hint: string }> = {
  EACCES: {
    code: "PERMISSION_DENIED",
    what: "permission denied",
    hint: "check the owner and mode of the store directory, or point --store at a directory you can write",
  },
  EPERM: {
    code: "PERMISSION_DENIED",
    what: "operation not permitted",
    hint: "check the owner and mode of the store directory, or point --store at a directory you can write",
  },
  EROFS: {
    code: "READ_ONLY",
    what: "the file system is read-only",
    hint: "point --store (or AREF_STORE) at a writable location",
  },
  ENOSPC: {
    code: "IO_ERROR",
    what: "no space left on the device",
    hint: "free some space (`aref gc` sweeps unreferenced blobs) or use another store",
  },
  EDQUOT: { code: "IO_ERROR", what: "disk quota exceeded", hint: "free some space (`aref gc`) or use another store" },
  EIO: { code: "IO_ERROR", what: "input/output error", hint: "check the disk holding the store" },
  ENOTDIR: {
    code: "CONFIG_INVALID",
    what: "a path component is not a directory",
    hint: "point --store at a directory",
  },
  EMFILE: {
    code: "UNAVAILABLE",
    what: "too many open files",
    hint: "raise the open-file limit (ulimit -n) and try again",
  },
};

/** Turns anything thrown into an ArefError (stable code, message, hint) or a UsageError. */
export function normalizeError(error: unknown): ArefError | UsageError {
  if (isArefError(error) || error instanceof UsageError) return error;
  if (error instanceof CommanderError) return new UsageError(error.message.replace(/^error: /, ""));
  const errno = error as NodeJS.ErrnoException;
  const mapped = typeof errno?.code === "string" ? ERRNO_CODES[errno.code] : undefined;
  if (mapped) {
    const where = errno.path ? ` (${errno.path})` : "";
    return new ArefError(mapped.code, `${mapped.what}${where}`, {
      hint: mapped.hint,
      details: { errno: errno.code },
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ArefError("INTERNAL", `unexpected error: ${message}`, {
    hint: "this is a bug in aref; please report it with the command you ran (set AREF_DEBUG=1 to print the stack)",
    cause: error,
  });
}
