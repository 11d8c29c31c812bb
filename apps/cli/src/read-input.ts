import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { ArefError } from "@artifact-refs/schema";
import { readFilePieces } from "@artifact-refs/store-fs";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";

export function tooLarge(size: number | string, maxBytes: number, what: string): ArefError {
  return new ArefError(
    "TOO_LARGE",
    `${what} is ${size} bytes, over the store's cap of ${maxBytes} bytes per artifact`,
    {
      hint: "store a smaller part (split it, or select the part you need first), or raise the cap with --max-bytes",
      details: { max_bytes: maxBytes, ...(typeof size === "number" ? { size_bytes: size } : {}) },
    },
  );
}

/** Stats a file named on the command line (relative to io.cwd): NOT_FOUND when it is missing, INVALID_INPUT for a directory. */
export async function statInputFile(
  path: string,
  io: CliIo,
  directoryHint: string,
): Promise<{ full: string; info: Stats }> {
  const full = resolve(io.cwd, path);
  let info;
  try {
    info = await stat(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new ArefError("NOT_FOUND", `no such file: ${path}`, {
        hint: "check the path, or use `-` to read standard input",
      });
    }
    throw error;
  }
  if (info.isDirectory())
    throw new ArefError("INVALID_INPUT", `${path} is a directory, not a file`, { hint: directoryHint });
  return { full, info };
}

/** Reads standard input to the end, throwing `over()` as soon as it is more than `maxBytes`. */
export async function readStdinBytes(io: CliIo, maxBytes: number, over: () => Error): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const buffer =
      typeof chunk === "string"
        ? Buffer.from(chunk, "utf8")
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += buffer.byteLength;
    if (size > maxBytes) throw over();
    chunks.push(buffer);
  }
  const all = Buffer.concat(chunks, size);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

/** Something to stash: its name (for the label and type) and a stream of its bytes. */
export interface StashInput {
  name: string | undefined;
  open: () => AsyncIterable<Uint8Array | string>;
}

/**
 * Checks every file named on the command line (exists, is not a directory, is not over the cap)
 * before any is read, and returns a stream opener for each (streams keep memory bounded; a file is
 * read through a few reused buffers, see readFilePieces, not a new buffer per read).
 */
export async function openFileInputs(paths: string[], io: CliIo, maxBytes: number): Promise<StashInput[]> {
  const inputs: StashInput[] = [];
  for (const path of paths) {
    if (path.includes("\u0000"))
      throw new ArefError("INVALID_INPUT", "the file path contains a NUL character", {
        hint: "pass the path of a regular file",
      });
    const { full, info } = await statInputFile(
      path,
      io,
      "stash one file at a time (pipe a listing or an archive through stdin if you need the whole directory)",
    );
    if (info.isFile() && info.size > maxBytes) throw tooLarge(info.size, maxBytes, path);
    inputs.push({ name: basename(full), open: () => readFilePieces(full) });
  }
  return inputs;
}

/** Standard input as a stash input; a terminal is refused (nothing was piped in). */
export function stdinInput(io: CliIo): StashInput {
  if (io.stdin.isTTY === true) {
    throw new UsageError(
      "nothing to stash: standard input is a terminal",
      "give a file (`aref stash build.log`) or pipe content in (`make 2>&1 | aref stash - --type log`)",
    );
  }
  return { name: undefined, open: () => io.stdin };
}
