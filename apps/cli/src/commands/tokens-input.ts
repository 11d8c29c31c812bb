import { readFile } from "node:fs/promises";
import { ArefError } from "@artifact-refs/schema";
import { UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { readStdinBytes, statInputFile } from "../read-input.js";

/** Largest input `aref tokens` and `aref budget check` read (64 MiB): counting more is a mistake, not a prompt. */
export const MAX_COUNT_INPUT_BYTES = 64 * 1024 * 1024;

function tooLarge(what: string): ArefError {
  return new ArefError("TOO_LARGE", `${what} is over ${MAX_COUNT_INPUT_BYTES / 1024 / 1024} MiB`, {
    hint: "count a smaller file (no prompt is this large), or split it first",
    details: { max_bytes: MAX_COUNT_INPUT_BYTES },
  });
}

/** Reads a text file (or standard input for `-`) as UTF-8; binary content is UNSUPPORTED. */
export async function readTextInput(
  path: string,
  io: CliIo,
  command: string,
): Promise<{ text: string; bytes: number; source: string }> {
  let bytes: Uint8Array;
  if (path === "-") {
    if (io.stdin.isTTY === true) {
      throw new UsageError(
        "nothing to count: standard input is a terminal",
        `give a file (\`aref ${command} prompt.txt\`) or pipe text in (\`cat prompt.txt | aref ${command} -\`)`,
      );
    }
    bytes = await readStdinBytes(io, MAX_COUNT_INPUT_BYTES, () => tooLarge("standard input"));
  } else {
    const { full, info } = await statInputFile(path, io, "give one text file");
    if (info.size > MAX_COUNT_INPUT_BYTES) throw tooLarge(path);
    bytes = await readFile(full);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ArefError("UNSUPPORTED", `${path === "-" ? "standard input" : path} is not UTF-8 text`, {
      hint: "token counts are for text; convert it to UTF-8 first",
    });
  }
  return { text, bytes: bytes.byteLength, source: path };
}
