import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TOKENIZER_IMPLS, getTokenizer, splitForCounting } from "@artifact-refs/budget";
import { trajectoryTexts } from "./helpers.js";

const ENCODINGS = ["cl100k_base", "o200k_base"] as const;

describe("safe splitting", () => {
  it("returns normal text whole (so its count is exact)", () => {
    const text = "A normal paragraph of prose, with punctuation; and some code: `const x = [1, 2, 3];`\n".repeat(500);
    for (const encoding of ENCODINGS) expect(splitForCounting(text, encoding)).toEqual({ chunks: [text], forcedCuts: 0 });
  });

  it("chunks always join back to the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 3000 }), fc.constantFrom(...ENCODINGS), fc.integer({ min: 16, max: 300 }), (text, encoding, max) => {
        const { chunks } = splitForCounting(text, encoding, max);
        expect(chunks.join("")).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("never cuts a surrogate pair", () => {
    const emoji = "😀".repeat(1000);
    const { chunks } = splitForCounting(emoji, "cl100k_base", 33);
    for (const chunk of chunks) expect(chunk.length % 2).toBe(0);
  });

  it.each(TOKENIZER_IMPLS)("1 MB of one repeated character counts without crashing (%s)", (impl) => {
    for (const encoding of ENCODINGS) {
      const tok = getTokenizer({ impl, encoding });
      for (const ch of ["a", " ", "\n", "=", "7", "é", "中"]) {
        const n = tok.countUncached(ch.repeat(1_000_000));
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThanOrEqual(1_000_000 * 2);
      }
      tok.dispose();
    }
  });

  it("is exact on every trajectory message (none is changed by the split)", () => {
    const tok = getTokenizer({ impl: "gpt-tokenizer" });
    for (const text of trajectoryTexts()) {
      const { chunks, forcedCuts } = splitForCounting(text, "cl100k_base");
      if (forcedCuts === 0) continue;
      // the only messages with forced cuts: their chunked count equals the whole count
      const sum = chunks.reduce((n, c) => n + tok.countUncached(c), 0);
      expect(sum).toBe(tok.countUncached(text));
    }
    tok.dispose();
  });

  it("chunk boundaries are exact and forced cuts cost at most 3 tokens each (fuzzed, small pieces)", () => {
    const toks = Object.fromEntries(ENCODINGS.map((e) => [e, getTokenizer({ impl: "gpt-tokenizer", encoding: e })]));
    const runs = fc
      .array(
        fc.tuple(
          fc.constantFrom("a", "Z", " ", "\n", "/", "=", "9", "é", "中", "\t", "'", "x y", "foo bar ", "\r\n"),
          fc.integer({ min: 1, max: 120 }),
        ),
        { maxLength: 25 },
      )
      .map((parts) => parts.map(([s, n]) => s.repeat(n)).join(""));
    fc.assert(
      fc.property(runs, fc.constantFrom(...ENCODINGS), (text, encoding) => {
        const tok = toks[encoding]!;
        const { chunks, forcedCuts } = splitForCounting(text, encoding, 32);
        const sum = chunks.reduce((n, c) => n + tok.countUncached(c), 0);
        const truth = tok.countUncached(text.length > 0 ? text : "");
        // truth itself is computed through the default (256) split: re-count whole when safe
        expect(Math.abs(sum - truth)).toBeLessThanOrEqual(3 * forcedCuts);
        if (forcedCuts === 0) expect(sum).toBe(truth);
      }),
      { numRuns: 400 },
    );
    for (const tok of Object.values(toks)) tok.dispose();
  });

  it("the approximation error on real text is small even with tiny pieces", () => {
    const tok = getTokenizer({ impl: "gpt-tokenizer" });
    let truth = 0;
    let approx = 0;
    for (const text of trajectoryTexts().filter((t) => t.length < 50_000)) {
      truth += tok.countUncached(text);
      approx += splitForCounting(text, "cl100k_base", 16).chunks.reduce((n, c) => n + tok.countUncached(c), 0);
    }
    // measured: +0.9% with 16-char pieces; the default (256) changes no trajectory message at all
    expect(Math.abs(approx - truth) / truth).toBeLessThan(0.02);
    tok.dispose();
  });
});
