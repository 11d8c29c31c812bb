import { ArefError } from "@artifact-refs/schema";

/** What the driver was doing when the file system said no: decides READ_ONLY vs PERMISSION_DENIED. */
export type FsOp = "read" | "write";

export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Maps a Node file-system error to an ArefError that names the path and says what to
 * do. Already-mapped ArefErrors pass through unchanged.
 */
export function fsError(error: unknown, op: FsOp, path: string, root: string): Error {
  if (error instanceof ArefError) return error;
  const errno = errnoOf(error);
  const details = { path, root, errno: errno ?? "unknown", op };
  const cause = error;
  const who = typeof process.getuid === "function" ? ` (uid ${process.getuid()})` : "";
  switch (errno) {
    case "EACCES":
    case "EPERM":
      if (op === "write") {
        return new ArefError(
          "READ_ONLY",
          `cannot write ${path}: the store at ${root} is read-only for this user${who} (${errno})`,
          {
            hint: `give this user write access to ${root} (check its owner and mode with \`ls -ld ${root}\`), or point --store at a directory you can write`,
            details,
            cause,
          },
        );
      }
      return new ArefError(
        "PERMISSION_DENIED",
        `cannot read ${path}: permission denied for this user${who} (${errno})`,
        {
          hint: `give this user read access to ${root} (check its owner and mode with \`ls -ld ${root}\`), or run as the store's owner`,
          details,
          cause,
        },
      );
    case "EROFS":
      return new ArefError("READ_ONLY", `cannot write ${path}: the file system holding ${root} is mounted read-only`, {
        hint: "remount it read-write, or point --store at a writable directory",
        details,
        cause,
      });
    case "ENOSPC":
    case "EDQUOT":
      return new ArefError(
        "IO_ERROR",
        `cannot write ${path}: ${errno === "ENOSPC" ? "no space left on the device" : "disk quota exceeded"} holding ${root}`,
        {
          hint: "free disk space (`aref gc` sweeps unreferenced blobs; `aref verify --repair` removes leftovers of interrupted writes), or move the store to a larger disk",
          details,
          cause,
        },
      );
    case "EISDIR":
      return new ArefError("IO_ERROR", `${path} is a directory, but the store expects a file there`, {
        hint: `something other than artifact-refs wrote into ${root}; move that directory away`,
        details,
        cause,
      });
    case "ENOTDIR":
      return new ArefError(
        "IO_ERROR",
        `a part of the path ${path} is a file, but the store expects a directory there`,
        {
          hint: `something other than artifact-refs wrote into ${root}; move that file away`,
          details,
          cause,
        },
      );
    case "ENAMETOOLONG":
      return new ArefError("INVALID_INPUT", `the path ${path} is too long for this file system`, {
        hint: "use shorter session ids, or a store root with a shorter path",
        details,
        cause,
      });
    case "EMFILE":
    case "ENFILE":
      return new ArefError("IO_ERROR", `cannot open ${path}: too many open files (${errno})`, {
        hint: "raise the open-file limit (`ulimit -n`) or lower the concurrency of the caller",
        details,
        cause,
      });
    default:
      return new ArefError("IO_ERROR", `cannot ${op} ${path}: ${(error as Error)?.message ?? String(error)}`, {
        hint: `check the disk and the permissions of ${root}; \`aref verify\` reports damaged files`,
        details,
        cause,
      });
  }
}
