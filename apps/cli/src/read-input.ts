import type { Stats } from "node:fs";
import { open, stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { ArefError } from "@artifact-refs/schema";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";

function tooLarge(size: number | string, maxBytes: number, what: string): ArefError {
  return new ArefError("TOO_LARGE", `${what} is ${size} bytes, over the store's cap of ${maxBytes} bytes per artifact`, {
    hint: "store a smaller part (split it, or select the part you need first), or raise the cap with --max-bytes",
    details: { max_bytes: maxBytes, ...(typeof size === "number" ? { size_bytes: size } : {}) },
  });
}

/** Stats a file named on the command line (relative to io.cwd): NOT_FOUND when it is missing, INVALID_INPUT for a directory. */
export async function statInputFile(path: string, io: CliIo, directoryHint: string): Promise<{ full: string; info: Stats }> {
  const full = resolve(io.cwd, path);
  let info;
  try {
    info = await stat(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new ArefError("NOT_FOUND", `no such file: ${path}`, { hint: "check the path, or use `-` to read standard input" });
    }
    throw error;
  }
  if (info.isDirectory()) throw new ArefError("INVALID_INPUT", `${path} is a directory, not a file`, { hint: directoryHint });
  return { full, info };
}

/** Reads standard input to the end, throwing `over()` as soon as it is more than `maxBytes`. */
export async function readStdinBytes(io: CliIo, maxBytes: number, over: () => Error): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += buffer.byteLength;
    if (size > maxBytes) throw over();
    chunks.push(buffer);
  }
  const all = Buffer.concat(chunks, size);
  return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
}

/** Reads a file (path relative to io.cwd), refusing early what is over `maxBytes`. */
export async function readFileInput(path: string, io: CliIo, maxBytes: number): Promise<{ bytes: Uint8Array; name: string }> {
  if (path.includes("\u0000")) throw new ArefError("INVALID_INPUT", "the file path contains a NUL character", { hint: "pass the path of a regular file" });
  const { full, info } = await statInputFile(path, io, "stash one file at a time (pipe a listing or an archive through stdin if you need the whole directory)");
  if (info.isFile() && info.size > maxBytes) throw tooLarge(info.size, maxBytes, path);
  const bytes = await readCapped(full, maxBytes, () => tooLarge(`more than ${maxBytes}`, maxBytes, path));
  return { bytes, name: basename(full) };
}

/**
 * Reads at most `maxBytes` from any file (regular, device like /dev/zero, FIFO, /proc file whose
 * size says 0), throwing `over()` as soon as there is more: the size from stat is never trusted.
 */
async function readCapped(full: string, maxBytes: number, over: () => Error): Promise<Uint8Array> {
  const handle = await open(full, "r");
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - size));
      const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes) throw over();
      chunks.push(chunk.subarray(0, bytesRead));
    }
    const all = Buffer.concat(chunks, size);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
  } finally {
    await handle.close();
  }
}

/** Reads standard input to the end, stopping as soon as it is over `maxBytes`. */
export async function readStdinInput(io: CliIo, maxBytes: number): Promise<Uint8Array> {
  if (io.stdin.isTTY === true) {
    throw new UsageError("nothing to stash: standard input is a terminal", "give a file (`aref stash build.log`) or pipe content in (`make 2>&1 | aref stash - --type log`)");
  }
  return readStdinBytes(io, maxBytes, () => tooLarge(`more than ${maxBytes}`, maxBytes, "standard input"));
}
