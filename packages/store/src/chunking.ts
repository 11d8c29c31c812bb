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

  /** Where the last `scan` stopped (its cut, or `to`) and the gear hash there. */
  const scanned = { at: 0, hash: 0 };

  /**
   * The first cut point in data[from, to): the first byte after which the gear hash (from `hash`)
   * has the `mask` bits all zero and that is ASCII; -1 when there is none (`scanned` then holds `to`
   * and the hash there, to go on with). Its own small function, so V8 optimises the loop on its own
   * (inside push it ran at about half the speed); eight bytes a step with one test for a candidate
   * among them, then those eight one by one (the same cuts as one byte a step).
   */
  function scan(data: Uint8Array, from: number, to: number, hash: number, mask: number): number {
    let h = hash;
    let i = from;
    while (i < to) {
      for (; i + 7 < to; i += 8) {
        const h1 = ((h << 1) + GEAR[data[i]!]!) | 0;
        const h2 = ((h1 << 1) + GEAR[data[i + 1]!]!) | 0;
        const h3 = ((h2 << 1) + GEAR[data[i + 2]!]!) | 0;
        const h4 = ((h3 << 1) + GEAR[data[i + 3]!]!) | 0;
        const h5 = ((h4 << 1) + GEAR[data[i + 4]!]!) | 0;
        const h6 = ((h5 << 1) + GEAR[data[i + 5]!]!) | 0;
        const h7 = ((h6 << 1) + GEAR[data[i + 6]!]!) | 0;
        const h8 = ((h7 << 1) + GEAR[data[i + 7]!]!) | 0;
        if (
          (h1 & mask) === 0 ||
          (h2 & mask) === 0 ||
          (h3 & mask) === 0 ||
          (h4 & mask) === 0 ||
          (h5 & mask) === 0 ||
          (h6 & mask) === 0 ||
          (h7 & mask) === 0 ||
          (h8 & mask) === 0
        )
          break;
        h = h8;
      }
      const stop = Math.min(to, i + 8);
      for (; i < stop; i++) {
        const b = data[i]!;
        h = ((h << 1) + GEAR[b]!) | 0;
        if ((h & mask) === 0 && b < 0x80) {
          scanned.at = i;
          scanned.hash = h;
          return i;
        }
      }
    }
    scanned.at = Math.max(i, from);
    scanned.hash = h;
    return -1;
  }

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
        let cut = scan(data, i, Math.min(n, CHUNK_AVG - held - 1), this.#hash, MASK_STRICT);
        if (cut < 0) cut = scan(data, scanned.at, Math.min(n, CHUNK_MAX - held - 1), scanned.hash, MASK_LOOSE);
        i = scanned.at;
        this.#hash = scanned.hash;
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
