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

/**
 * The chunker as one self-contained function: it uses nothing from outside but its argument and
 * the language's globals, so the chunk worker (chunk-worker.ts) evaluates its source text and cuts
 * with the very same code as the main thread. Sizes are repeated here for that reason.
 */
export function defineChunker(sha256: (text: string) => Buffer) {
  const CHUNK_MIN = 16 * 1024;
  const CHUNK_AVG = 64 * 1024;
  const CHUNK_MAX = 256 * 1024;

  /** 256 fixed pseudo-random 32-bit values (from SHA-256, so they never change between versions). */
  const GEAR: Int32Array = (() => {
    const table = new Int32Array(256); // int32 (not uint32) keeps the hot loop in small integers
    for (let i = 0; i < 256; i++) table[i] = sha256(`artifact-refs gear ${i}`).readInt32BE(0);
    return table;
  })();

  /** Masks on the top bits (a left-shifting gear hash mixes the most bytes into its top bits). */
  const MASK_STRICT = 0xffffffff << (32 - 18); // 18 bits before the average (int32)
  const MASK_LOOSE = 0xffffffff << (32 - 14); // 14 bits after it

  /** Incremental chunker: push bytes in pieces of any size, get whole chunks back; `end()` flushes the last one. */
  class Chunker {
    #pieces: Uint8Array[] = [];
    #length = 0; // bytes of the current chunk held in #pieces
    #hash = 0;

    push(data: Uint8Array): Uint8Array[] {
      const out: Uint8Array[] = [];
      const n = data.length;
      let start = 0; // start in `data` of the bytes not yet in #pieces
      let i = 0;
      while (i < n) {
        const held = this.#length - start; // bytes of the current chunk before data[0] (offset by start)
        // No cut before the minimum size: skip ahead without hashing.
        const minAt = CHUNK_MIN - held; // index in `data` where the chunk reaches the minimum
        if (i < minAt) {
          i = Math.min(n, minAt);
          continue;
        }
        // Tight scans: the strict mask until the average size, the loose one until the maximum.
        let h = this.#hash;
        let cut = -1;
        const avgAt = Math.min(n, CHUNK_AVG - held - 1);
        for (; i < avgAt; i++) {
          const b = data[i]!;
          h = ((h << 1) + GEAR[b]!) | 0;
          if ((h & MASK_STRICT) === 0 && b < 0x80) {
            cut = i;
            break;
          }
        }
        if (cut < 0) {
          const maxAt = Math.min(n, CHUNK_MAX - held - 1);
          for (; i < maxAt; i++) {
            const b = data[i]!;
            h = ((h << 1) + GEAR[b]!) | 0;
            if ((h & MASK_LOOSE) === 0 && b < 0x80) {
              cut = i;
              break;
            }
          }
        }
        this.#hash = h;
        let forced = false;
        if (cut < 0) {
          if (i < n && held + i + 1 >= CHUNK_MAX) {
            cut = i; // the byte that makes the maximum size
            forced = true;
          } else break; // the data ran out first: keep scanning with the next piece
        }
        this.#pieces.push(data.subarray(start, cut + 1));
        this.#length += cut + 1 - start;
        start = cut + 1;
        i = cut + 1;
        out.push(this.#cut(forced));
      }
      if (start < n) {
        this.#pieces.push(data.subarray(start));
        this.#length += n - start;
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

  /** Length of a trailing, incomplete UTF-8 sequence (0 when the bytes end on a character boundary). */
  function incompleteUtf8Tail(bytes: Uint8Array): number {
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

  return { Chunker, incompleteUtf8Tail };
}

const kit = defineChunker((text) => createHash("sha256").update(text).digest());

/** Incremental chunker: push bytes in pieces of any size, get whole chunks back; `end()` flushes the last one. */
export class Chunker {
  readonly #inner = new kit.Chunker();

  push(data: Uint8Array): Uint8Array[] {
    return this.#inner.push(data);
  }

  end(): Uint8Array[] {
    return this.#inner.end();
  }
}

/** Chunks a whole buffer (tests and small callers). */
export function chunkBytes(bytes: Uint8Array): Uint8Array[] {
  const chunker = new Chunker();
  return [...chunker.push(bytes), ...chunker.end()];
}

/** Length of a trailing, incomplete UTF-8 sequence (0 when the bytes end on a character boundary). */
export const incompleteUtf8Tail: (bytes: Uint8Array) => number = kit.incompleteUtf8Tail;
