import { createHash } from "node:crypto";

/**
 * Content-defined chunking, FastCDC style (Xia et al., 2016): a gear rolling hash over the
 * bytes, a cut where the hash's top bits are zero, with "normalized chunking" (a stricter
 * mask before the average size, a looser one after it) so chunk sizes cluster around the
 * average. Cuts depend only on the bytes near them, so an edit changes the chunks around it
 * and the chunker falls back in step right after: the rest of the chunks stay the same.
 *
 * Cuts never split a UTF-8 character: a content-defined cut is taken only after an ASCII
 * byte, and a forced cut at the maximum size backs off before an incomplete sequence. So
 * every chunk of valid UTF-8 text is valid UTF-8 text on its own (per-chunk line and char
 * counts need that).
 */
export const CHUNK_MIN = 16 * 1024;
export const CHUNK_AVG = 64 * 1024;
export const CHUNK_MAX = 256 * 1024;
export const CHUNKING_ALGORITHM = "fastcdc-gear32-v1";

/** 256 fixed pseudo-random 32-bit values (from SHA-256, so they never change between versions). */
const GEAR: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) table[i] = createHash("sha256").update(`artifact-refs gear ${i}`).digest().readUInt32BE(0);
  return table;
})();

/** Masks on the top bits (a left-shifting gear hash mixes the most bytes into its top bits). */
const MASK_STRICT = (0xffffffff << (32 - 18)) >>> 0; // 18 bits before the average
const MASK_LOOSE = (0xffffffff << (32 - 14)) >>> 0; // 14 bits after it

/** Incremental chunker: push bytes in pieces of any size, get whole chunks back; `end()` flushes the last one. */
export class Chunker {
  #pieces: Uint8Array[] = [];
  #length = 0; // bytes of the current chunk held in #pieces
  #hash = 0;

  push(data: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let start = 0; // start in `data` of the bytes not yet in #pieces
    let i = 0;
    while (i < data.length) {
      const len = this.#length + (i - start);
      if (len < CHUNK_MIN) {
        // No cut before the minimum size: skip ahead without hashing.
        const skip = Math.min(data.length - i, CHUNK_MIN - len);
        i += skip;
        continue;
      }
      const b = data[i]!;
      this.#hash = ((this.#hash << 1) + GEAR[b]!) >>> 0;
      const size = len + 1;
      const mask = size < CHUNK_AVG ? MASK_STRICT : MASK_LOOSE;
      if (((this.#hash & mask) === 0 && b < 0x80) || size >= CHUNK_MAX) {
        this.#pieces.push(data.subarray(start, i + 1));
        this.#length += i + 1 - start;
        start = i + 1;
        out.push(this.#cut(size >= CHUNK_MAX && !((this.#hash & mask) === 0 && b < 0x80)));
      }
      i++;
    }
    if (start < data.length) {
      this.#pieces.push(data.subarray(start));
      this.#length += data.length - start;
    }
    return out;
  }

  end(): Uint8Array[] {
    if (this.#length === 0) return [];
    const last = concat(this.#pieces, this.#length);
    this.#pieces = [];
    this.#length = 0;
    this.#hash = 0;
    return [last];
  }

  /** Emits the held bytes as one chunk; a forced cut keeps an incomplete UTF-8 sequence for the next chunk. */
  #cut(forced: boolean): Uint8Array {
    const all = concat(this.#pieces, this.#length);
    const keep = forced ? incompleteUtf8Tail(all) : 0;
    this.#pieces = keep > 0 ? [all.slice(all.length - keep)] : [];
    this.#length = keep;
    this.#hash = 0;
    return keep > 0 ? all.subarray(0, all.length - keep) : all;
  }
}

/** Chunks a whole buffer (tests and small callers). */
export function chunkBytes(bytes: Uint8Array): Uint8Array[] {
  const chunker = new Chunker();
  return [...chunker.push(bytes), ...chunker.end()];
}

/** Length of a trailing, incomplete UTF-8 sequence (0 when the bytes end on a character boundary). */
export function incompleteUtf8Tail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if (b < 0x80) return 0;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return need > back ? back : 0;
    }
  }
  return 0;
}

function concat(pieces: Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
