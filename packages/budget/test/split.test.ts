import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TOKENIZER_IMPLS, getTokenizer, splitForCounting } from "@artifact-refs/budget";
import { itWithData } from "@artifact-refs/tooling/testing/shared-data";
import { HEAVY_TEST_TIMEOUT_MS, trajectoryTexts } from "./helpers.js";

const ENCODINGS = ["cl100k_base", "o200k_base"] as const;
const require = createRequire(import.meta.url);
const { get_encoding } = require("tiktoken") as typeof import("tiktoken");
/** Raw gpt-tokenizer counts (no split): the reference on inputs small enough to count directly. */
const none = new Set<string>();
const raw = Object.fromEntries(
  ENCODINGS.map((e) => {
    const mod = require(`gpt-tokenizer/encoding/${e}`) as {
      countTokens(t: string, o: { disallowedSpecial: Set<string> }): number;
    };
    return [e, (t: string) => mod.countTokens(t, { disallowedSpecial: none })];
  }),
) as Record<(typeof ENCODINGS)[number], (t: string) => number>;

describe("safe splitting", () => {
  it("returns normal text whole (so its count is exact)", () => {
    const text = "A normal paragraph of prose, with punctuation; and some code: `const x = [1, 2, 3];`\n".repeat(500);
    for (const encoding of ENCODINGS)
      expect(splitForCounting(text, encoding)).toEqual({ chunks: [text], forcedCuts: 0 });
  });

  it("chunks always join back to the text", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 3000 }),
        fc.constantFrom(...ENCODINGS),
        fc.integer({ min: 16, max: 300 }),
        (text, encoding, max) => {
          const { chunks } = splitForCounting(text, encoding, max);
          expect(chunks.join("")).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never cuts a surrogate pair", () => {
    const emoji = "😀".repeat(1000);
    const { chunks } = splitForCounting(emoji, "cl100k_base", 33);
    for (const chunk of chunks) expect(chunk.length % 2).toBe(0);
  });

  const RUN_CHARS = ["a", " ", "\n", "=", "7", "é", "中", "😀"];

  it("1 MB of one repeated character is cut into short slices that join back to it", () => {
    for (const encoding of ENCODINGS) {
      for (const ch of RUN_CHARS) {
        const text = ch.repeat(1_000_000);
        const { chunks, forcedCuts } = splitForCounting(text, encoding);
        if (ch === "7") {
          // digits are pieces of at most 3: nothing to cut, the text stays whole
          expect(chunks).toEqual([text]);
          continue;
        }
        expect(forcedCuts).toBeGreaterThan(1000);
        expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(256);
        expect(chunks.reduce((n, c) => n + c.length, 0)).toBe(text.length);
        expect(chunks[0]! + chunks.at(-1)!).toBe(
          text.slice(0, chunks[0]!.length) + text.slice(text.length - chunks.at(-1)!.length),
        );
      }
    }
  });

  it.each(TOKENIZER_IMPLS)(
    "long runs of one character count the same with every implementation (%s)",
    (impl) => {
      // 20,000 chars is far past the 256-char piece limit, so this runs the split path;
      // the 1 MB case of the default implementation is below (the split makes the size irrelevant)
      for (const encoding of ENCODINGS) {
        const tok = getTokenizer({ impl, encoding });
        const reference = getTokenizer({ impl: "gpt-tokenizer", encoding });
        for (const ch of RUN_CHARS) {
          const n = tok.countUncached(ch.repeat(20_000));
          expect(n).toBeGreaterThan(0);
          expect(n).toBe(reference.countUncached(ch.repeat(20_000)));
        }
        tok.dispose();
        reference.dispose();
      }
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it("1 MB of one repeated character counts without crashing (default implementation)", () => {
    for (const encoding of ENCODINGS) {
      const tok = getTokenizer({ encoding });
      for (const ch of ["a", " ", "\n", "中"]) {
        const n = tok.countUncached(ch.repeat(1_000_000));
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThanOrEqual(1_000_000 * 2);
      }
      tok.dispose();
    }
  });

  itWithData(
    "trajectories",
    "is exact on every trajectory message: the split never changes a count (raw tiktoken as reference)",
    () => {
      for (const encoding of ENCODINGS) {
        const reference = get_encoding(encoding);
        const tok = getTokenizer({ impl: "gpt-tokenizer", encoding });
        let withCuts = 0;
        for (const text of trajectoryTexts()) {
          const { chunks, forcedCuts } = splitForCounting(text, encoding);
          if (forcedCuts === 0) {
            expect(chunks).toEqual([text]);
            continue;
          }
          withCuts++;
          const sum = chunks.reduce((n, c) => n + tok.countUncached(c), 0);
          expect(sum).toBe(reference.encode_ordinary(text).length);
        }
        expect(withCuts).toBeGreaterThan(0); // the corpus does exercise forced cuts
        reference.free();
        tok.dispose();
      }
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it(
    "with the default slices, a forced cut moves the count by at most 5 tokens (fuzzed)",
    () => {
      const toks = Object.fromEntries(ENCODINGS.map((e) => [e, getTokenizer({ impl: "gpt-tokenizer", encoding: e })]));
      let cutRuns = 0;
      const runs = fc
        .array(
          fc.tuple(
            fc.constantFrom("a", "Z", " ", "\n", "/", "=", "9", "é", "中", "\t", "'", "x y", "foo bar ", "\r\n"),
            fc.integer({ min: 1, max: 700 }),
          ),
          { maxLength: 12 },
        )
        .map((parts) => parts.map(([s, n]) => s.repeat(n)).join(""));
      fc.assert(
        fc.property(runs, fc.constantFrom(...ENCODINGS), (text, encoding) => {
          const tok = toks[encoding]!;
          const { chunks, forcedCuts } = splitForCounting(text, encoding);
          const sum = chunks.reduce((n, c) => n + tok.countUncached(c), 0);
          const truth = raw[encoding](text); // unsplit: these inputs are small enough
          if (forcedCuts > 0) cutRuns++;
          // 5: the worst seen over every pair of one-character runs (e.g. "=" + 264 "~": 15 counted, 10 true).
          expect(Math.abs(sum - truth)).toBeLessThanOrEqual(5 * forcedCuts);
          if (forcedCuts === 0) expect(sum).toBe(truth);
        }),
        { numRuns: 300 },
      );
      expect(cutRuns).toBeGreaterThan(50);
      for (const tok of Object.values(toks)) tok.dispose();
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it(
    "with tiny slices (32 chars) a cut moves the count by at most 5 tokens too (every run swept)",
    () => {
      // Deterministic sweep, not fuzz: the worst cases are specific run lengths (e.g. "'" + 56 slashes: 7 counted, 2 true).
      const atoms = ["a", "Z", " ", "\n", "/", "=", "9", "é", "中", "\t", "'", "-", "*", "#", ".", "_", "x y", "\r\n"];
      let worst = 0;
      let cases = 0;
      for (const encoding of ENCODINGS) {
        const tok = getTokenizer({ impl: "gpt-tokenizer", encoding });
        for (const atom of atoms) {
          for (const prefix of ["", " ", "foo bar ", "'"]) {
            for (let n = 17; n < 160; n++) {
              const text = prefix + atom.repeat(n);
              const { chunks, forcedCuts } = splitForCounting(text, encoding, 32);
              if (forcedCuts === 0) continue;
              cases++;
              const sum = chunks.reduce((total, c) => total + tok.countUncached(c), 0);
              worst = Math.max(worst, Math.abs(sum - raw[encoding](text)) / forcedCuts);
            }
          }
        }
        tok.dispose();
      }
      expect(cases).toBeGreaterThan(5_000);
      expect(worst).toBeLessThanOrEqual(5);
      expect(worst).toBeGreaterThan(3); // the bound is tight: a cut costs more than "a token or so" on such runs
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  itWithData("trajectories", "the approximation error on real text is small even with tiny pieces", () => {
    const tok = getTokenizer({ impl: "gpt-tokenizer" });
    let truth = 0;
    let approx = 0;
    for (const text of trajectoryTexts().filter((t) => t.length < 50_000)) {
      truth += raw.cl100k_base(text);
      approx += splitForCounting(text, "cl100k_base", 16).chunks.reduce((n, c) => n + tok.countUncached(c), 0);
    }
    // measured: +0.9% with 16-char pieces; the default (256) changes no trajectory message at all
    expect(Math.abs(approx - truth) / truth).toBeLessThan(0.02);
    tok.dispose();
  });
});
