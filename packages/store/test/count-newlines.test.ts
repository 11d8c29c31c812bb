import { describe, expect, it } from "vitest";
import { countNewlines } from "../src/manifest.js";

const naive = (bytes: Uint8Array) => bytes.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);

describe("countNewlines (four bytes at a time)", () => {
  it("agrees with a byte-by-byte count at every offset and length, next to bytes that differ from \\n in one bit", () => {
    // Bytes around 0x0a (0x0b, 0x8a, 0x09, 0x00, 0xff) are where a word-wise trick would slip.
    const alphabet = [10, 10, 11, 0x8a, 9, 0, 255, 0x2a, 0x0a];
    let x = 12345;
    const data = new Uint8Array(4099);
    for (let i = 0; i < data.length; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      data[i] = alphabet[x % alphabet.length]!;
    }
    for (let start = 0; start < 9; start++)
      for (const length of [0, 1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 1000, 4090 - start])
        expect(countNewlines(data.subarray(start, start + length))).toBe(naive(data.subarray(start, start + length)));
    expect(countNewlines(new Uint8Array(1000).fill(10))).toBe(1000);
    // Only newlines, past the 255 words summed per block (each byte lane at its most, 255), at every alignment.
    const newlines = new Uint8Array(10_007).fill(10);
    for (let start = 0; start < 4; start++) expect(countNewlines(newlines.subarray(start))).toBe(10_007 - start);
    expect(countNewlines(new Uint8Array(10_000).fill(0x8a))).toBe(0);
    expect(countNewlines(new TextEncoder().encode("a\nb\r\n\n\u00e9\n"))).toBe(4);
  });
});
