import { describe, expect, it } from "vitest";
import { applySelector, applySelectorToChunks, type ChunkSource } from "../src/index.js";

const encoder = new TextEncoder();

/** Splits a text into chunks of about `size` bytes at character boundaries, counting reads. */
function chunked(text: string, size: number): ChunkSource & { reads: number[] } {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++;
    pieces.push(text.slice(at, end));
    at = end;
  }
  const bytes = pieces.map((p) => encoder.encode(p));
  let newlinesBefore = 0;
  let charsBefore = 0;
  const chunks = pieces.map((p) => {
    const newlines = p.split("\n").length - 1;
    const info = { newlines, chars: p.length, newlinesBefore, charsBefore };
    newlinesBefore += newlines;
    charsBefore += p.length;
    return info;
  });
  const reads: number[] = [];
  return {
    size: bytes.reduce((n, b) => n + b.byteLength, 0),
    lines: newlinesBefore + (text.endsWith("\n") ? 0 : 1),
    chars: text.length,
    chunks,
    reads,
    read: async (i: number) => {
      reads.push(i);
      return bytes[i]!;
    },
  };
}

function logText(lines: number, trailingNewline = true): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++)
    out.push(i % 997 === 0 ? `line ${i} ERROR something failed ü€😀` : `line ${i} ok ${"x".repeat(i % 50)}`);
  return out.join("\n") + (trailingNewline ? "\n" : "");
}

const selectors: unknown[] = [
  { mode: "headtail" },
  { mode: "headtail", tail: 5 },
  { mode: "headtail", head: 3 },
  { mode: "headtail", head: 2, tail: 7, maxChars: 500 },
  { mode: "headtail", tail: 100000, maxChars: 300 },
  { mode: "headtail", maxChars: 50 },
  { mode: "range", start: 1, end: 10 },
  { mode: "range", start: 4000, end: 4100 },
  { mode: "range", start: 4000, maxChars: 1000 },
  { mode: "range", start: 19999 },
  { mode: "range", start: 20000 },
  { mode: "range", start: 123, end: 9000, maxChars: 2000 },
  { mode: "range", start: 500, offset: 3, maxChars: 4 },
  { mode: "grep", pattern: "ERROR" },
  { mode: "grep", pattern: "ERROR", context: 2, maxMatches: 3 },
  { mode: "grep", pattern: "ERROR", skip: 15 },
  { mode: "grep", pattern: "^line 1999[0-9] ", ignoreCase: true },
  { mode: "grep", pattern: "ok", maxChars: 700 },
  { mode: "grep", pattern: "nothing matches this" },
];

describe("selectors over chunked content", () => {
  for (const trailing of [true, false]) {
    const text = logText(20_000, trailing);
    for (const size of [4096, 65_536, 250_000]) {
      it(`return what the whole-text selectors return (chunks of ${size} bytes, trailing newline ${trailing})`, async () => {
        for (const selector of selectors) {
          const expected = applySelector(text, selector);
          expect(await applySelectorToChunks(chunked(text, size), selector), JSON.stringify(selector)).toEqual(
            expected,
          );
        }
      });
    }
  }

  it("a tail reads only the last chunks, a range only its lines' chunks, grep each chunk once plus the chunks it shows", async () => {
    const text = logText(20_000);
    let source = chunked(text, 16_384);
    const n = source.chunks.length;
    expect(n).toBeGreaterThan(40);
    await applySelectorToChunks(source, { mode: "headtail", tail: 5 });
    expect(new Set(source.reads).size).toBeLessThanOrEqual(2);
    expect(Math.min(...source.reads)).toBeGreaterThanOrEqual(n - 2);
    source = chunked(text, 16_384);
    await applySelectorToChunks(source, { mode: "range", start: 10_000, end: 10_020 });
    expect(new Set(source.reads).size).toBeLessThanOrEqual(2);
    source = chunked(text, 16_384);
    const found = await applySelectorToChunks(source, { mode: "grep", pattern: "^line 19960 " });
    expect(found.text).toMatch(/^19960:line 19960 /);
    expect(source.reads.length).toBeLessThanOrEqual(n + 2);
  });

  it("refuses JSONPath over a chunked document above the stated size, and binary chunks", async () => {
    const big = { ...chunked('{"a": 1}', 100), size: 64 * 1024 * 1024 };
    await expect(applySelectorToChunks(big, { mode: "jsonpath", expr: "$.a" })).rejects.toMatchObject({
      code: "UNSUPPORTED",
    });
    const small = chunked(`{"items": [${Array.from({ length: 5000 }, (_, i) => `{"id": ${i}}`).join(", ")}]}`, 4096);
    expect(await applySelectorToChunks(small, { mode: "jsonpath", expr: "$.items[4999].id" })).toEqual(
      applySelector(`{"items": [${Array.from({ length: 5000 }, (_, i) => `{"id": ${i}}`).join(", ")}]}`, {
        mode: "jsonpath",
        expr: "$.items[4999].id",
      }),
    );
    const binary: ChunkSource = {
      size: 3,
      lines: 1,
      chars: 3,
      chunks: [{ newlines: 0, chars: 3, newlinesBefore: 0, charsBefore: 0 }],
      read: async () => new Uint8Array([0, 1, 2]),
    };
    await expect(applySelectorToChunks(binary, { mode: "headtail", maxChars: 1 })).rejects.toMatchObject({
      code: "UNSUPPORTED",
    });
  });
});
