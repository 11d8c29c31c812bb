/**
 * Deterministic inputs for the chunking pins (test/chunk-pinned.test.ts): each exercises one part of
 * the chunker and the per-chunk counts (content-defined cuts in a log, forced cuts that back off
 * before an incomplete UTF-8 sequence, binary found late, a NUL), fed in uneven pieces.
 */
function prng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x;
  };
}

function logBytes(bytes: number, seed: number): Uint8Array {
  const next = prng(seed);
  const parts: string[] = [];
  let total = 0;
  for (let i = 1; total < bytes; i++) {
    const x = next();
    const line = `2026-11-23T10:${String(i % 60).padStart(2, "0")}:00Z INFO worker-${x % 16} request ${i} took ${x % 997}ms id=${x.toString(16)}\n`;
    parts.push(line);
    total += line.length;
  }
  return new TextEncoder().encode(parts.join("")).subarray(0, bytes);
}

function randomBytes(bytes: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = next() >>> 24;
  return out;
}

/** Text with no ASCII byte for long stretches: only forced cuts, each backing off a split character. */
function wideText(bytes: number, seed: number, alphabet: string[]): Uint8Array {
  const next = prng(seed);
  const parts: string[] = [];
  let total = 0;
  while (total < bytes) {
    const x = next();
    const s = x % 5000 === 0 ? "\n" : alphabet[x % alphabet.length]!;
    parts.push(s);
    total += Buffer.byteLength(s);
  }
  return new TextEncoder().encode(parts.join(""));
}

const MiB = 1024 * 1024;

export const PINNED_INPUTS: Record<string, () => Uint8Array> = {
  empty: () => new Uint8Array(0),
  tiny: () => new TextEncoder().encode("a\nb"),
  "log just over the blob cap": () => logBytes(600 * 1024, 1),
  "log 20 MiB": () => logBytes(20 * MiB, 2),
  "random bytes 12 MiB": () => randomBytes(12 * MiB, 3),
  "CJK text 10 MiB (3-byte characters)": () => wideText(10 * MiB, 4, ["日", "本", "語", "文", "字", "列"]),
  "emoji text 9 MiB (4-byte characters)": () => wideText(9 * MiB, 5, ["😀", "🚀", "🧪", "é"]),
  "log with invalid UTF-8 near the end": () => {
    const b = logBytes(11 * MiB, 6);
    b[b.length - 1000] = 0xff;
    return b;
  },
  "log with a NUL in the middle": () => {
    const b = logBytes(10 * MiB, 7);
    b[5 * MiB] = 0;
    return b;
  },
  "log without a final newline, 9 MiB": () => logBytes(9 * MiB - 3, 8),
};

/** Uneven pieces of `bytes`: 1 byte up to ~300 KiB, a new pattern for each seed. */
export function unevenPieces(bytes: Uint8Array, seed: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  const next = prng(seed);
  for (let at = 0; at < bytes.length; ) {
    const x = next();
    const n = x % 7 === 0 ? 1 + (x % 17) : 1 + (x % (300 * 1024));
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}
