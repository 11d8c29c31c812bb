/**
 * What a chunked put records about each chunk, written as one self-contained function (it uses
 * nothing from outside but its arguments and the language's globals): the main thread calls it
 * (chunked.ts) and the chunk worker (chunk-worker.ts) evaluates its source text, so both describe
 * chunks with the very same code.
 *
 * Per chunk: its SHA-256 id, its size, its newline bytes and its UTF-16 chars. Along the way it
 * decides whether the content is text: a NUL or a byte sequence that is not UTF-8 makes it binary.
 */
export function defineChunkDescriber(tools: {
  sha256Hex(bytes: Uint8Array): string;
  isAscii(bytes: Uint8Array): boolean;
  hasNul(bytes: Uint8Array): boolean;
  countNewlines(bytes: Uint8Array): number;
}) {
  class ChunkDescriber {
    readonly #utf8 = new TextDecoder("utf-8", { fatal: true });
    #binary: boolean;

    /** `binary`: the content was already found to be binary (by the describer of its earlier chunks). */
    constructor(binary = false) {
      this.#binary = binary;
    }

    get binary(): boolean {
      return this.#binary;
    }

    /** [chunk id, bytes, newline count, UTF-16 chars (0 once the content is known to be binary)]. */
    describe(chunk: Uint8Array): [string, number, number, number] {
      let chars = 0;
      if (!this.#binary) {
        if (tools.hasNul(chunk)) this.#binary = true;
        else if (tools.isAscii(chunk)) {
          chars = chunk.byteLength; // ASCII (most logs): one UTF-16 char per byte, no decoding needed
        } else {
          try {
            chars = this.#utf8.decode(chunk, { stream: true }).length;
          } catch {
            this.#binary = true;
          }
        }
      }
      return [tools.sha256Hex(chunk), chunk.byteLength, tools.countNewlines(chunk), chars];
    }

    /** True when the content is binary; call once, after the last chunk (an unfinished character makes it binary). */
    finish(): boolean {
      if (!this.#binary) {
        try {
          this.#utf8.decode();
        } catch {
          this.#binary = true;
        }
      }
      return this.#binary;
    }
  }
  return ChunkDescriber;
}

/** True when `bytes` hold a NUL (Buffer's indexOf: ~6x faster than Uint8Array's includes). Self-contained too. */
export const hasNul = (bytes: Uint8Array): boolean =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(0) !== -1;
