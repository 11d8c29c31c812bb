import { createRequire } from "node:module";
import { hasErrorCode } from "@artifact-refs/schema";
import { errorOf } from "@artifact-refs/tooling/testing/errors";
import { eachWithData } from "@artifact-refs/tooling/testing/shared-data";
import { throwingTokenizer } from "@artifact-refs/tooling/testing/tokenizers";
import { afterEach, describe, expect, it } from "vitest";
import {
  TOKENIZER_IMPLS,
  type Tokenizer,
  clearCountCache,
  countCacheStats,
  countTokens,
  defaultTokenizer,
  disposeAllTokenizers,
  getTokenizer,
  liveEncoderCount,
  tryCountTokens,
} from "@artifact-refs/budget";
import { HEAVY_TEST_TIMEOUT_MS, sampledTrajectoryTexts } from "./helpers.js";

const require = createRequire(import.meta.url);
const { get_encoding } = require("tiktoken") as typeof import("tiktoken");

afterEach(() => clearCountCache());

describe("counts", () => {
  const texts = sampledTrajectoryTexts();

  eachWithData("trajectories", ["cl100k_base", "o200k_base"] as const)(
    "all three implementations give the reference tiktoken count on sampled trajectory messages (%s)",
    (encoding) => {
      const reference = get_encoding(encoding);
      const tokenizers = TOKENIZER_IMPLS.map((impl) => getTokenizer({ impl, encoding }));
      try {
        // a fixed sample (see helpers.ts); the 868k-char output is compared in the whole-file test of the CLI
        expect(texts.length).toBeGreaterThan(200);
        for (const text of texts) {
          const expected = reference.encode_ordinary(text).length;
          for (const tok of tokenizers)
            expect(tok.countUncached(text), `${tok.name} on ${text.slice(0, 40)}`).toBe(expected);
        }
      } finally {
        reference.free();
        for (const tok of tokenizers) tok.dispose();
      }
    },
    HEAVY_TEST_TIMEOUT_MS,
  );

  it("counts special-token text as ordinary text", () => {
    for (const impl of TOKENIZER_IMPLS) {
      const tok = getTokenizer({ impl });
      expect(tok.count("<|endoftext|>")).toBeGreaterThan(1);
      tok.dispose();
    }
  });

  it("empty text is zero tokens", () => {
    expect(countTokens("")).toBe(0);
  });

  it("rejects a non-string", () => {
    expect(() => countTokens(42 as unknown as string)).toThrow(/can only count strings/);
  });
});

describe("encoders", () => {
  it("one shared encoder per (implementation, encoding), freed when the last handle is disposed", () => {
    disposeAllTokenizers();
    const before = liveEncoderCount();
    const a = getTokenizer({ impl: "tiktoken", encoding: "o200k_base" });
    const b = getTokenizer({ impl: "tiktoken", model: "gpt-4o" });
    expect(liveEncoderCount()).toBe(before + 1);
    a.dispose();
    expect(liveEncoderCount()).toBe(before + 1);
    expect(b.count("still works")).toBe(2);
    b.dispose();
    expect(liveEncoderCount()).toBe(before);
    expect(() => b.count("after dispose")).toThrow(/disposed/);
  });

  it("handles survive disposeAllTokenizers by loading a fresh encoder", () => {
    const tok = getTokenizer({ impl: "tiktoken" });
    disposeAllTokenizers();
    expect(tok.countUncached("hello world")).toBe(2);
    tok.dispose();
  });

  it("the default tokenizer is shared", () => {
    expect(defaultTokenizer({ model: "gpt-4o" })).toBe(defaultTokenizer({ encoding: "o200k_base" }));
  });

  it("an unknown implementation is an error", () => {
    expect(() => getTokenizer({ impl: "sentencepiece" as never })).toThrow(/unknown tokenizer implementation/);
  });
});

describe("cache", () => {
  it("counts the same content once per process", () => {
    clearCountCache();
    let calls = 0;
    const tokenizer: Tokenizer = {
      name: "words",
      encoding: "words",
      count: (text) => {
        calls++;
        return text.split(/\s+/).filter(Boolean).length;
      },
    };
    const long = "lorem ipsum ".repeat(1000);
    expect(countTokens(long, { tokenizer })).toBe(2000);
    expect(countTokens(`${long}`, { tokenizer })).toBe(2000);
    expect(countTokens("short text", { tokenizer })).toBe(2);
    expect(countTokens("short text", { tokenizer })).toBe(2);
    expect(calls).toBe(2);
    expect(countCacheStats()).toMatchObject({ hits: 2, misses: 2 });
    expect(countTokens(long, { tokenizer, cache: false })).toBe(2000);
    expect(calls).toBe(3);
  });

  it("two custom tokenizers with the same name do not share counts", () => {
    const one: Tokenizer = { name: "same", encoding: "x", count: () => 1 };
    const two: Tokenizer = { name: "same", encoding: "x", count: () => 2 };
    expect(countTokens("text", { tokenizer: one })).toBe(1);
    expect(countTokens("text", { tokenizer: two })).toBe(2);
  });

  it("built-in counts are cached too", () => {
    clearCountCache();
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(200);
    const first = countTokens(text, { model: "gpt-4o" });
    expect(countTokens(text, { model: "gpt-4o" })).toBe(first);
    expect(countCacheStats().hits).toBe(1);
  });
});

describe("failures fail closed", () => {
  it("a throwing tokenizer gives TOKENIZER_FAILED", () => {
    const broken = throwingTokenizer("boom");
    const error = errorOf(() => countTokens("anything", { tokenizer: broken }));
    expect(hasErrorCode(error, "TOKENIZER_FAILED")).toBe(true);
    expect(error.message).toMatch(/boom/);
    const result = tryCountTokens("anything", { tokenizer: broken });
    expect(result.ok).toBe(false);
  });

  it.each([NaN, -1, 1.5, Infinity])("a tokenizer returning %s is a failure, not a count", (value) => {
    const odd: Tokenizer = { name: `odd-${value}`, encoding: "x", count: () => value };
    expect(() => countTokens("anything", { tokenizer: odd })).toThrow(/not a token count/);
  });

  it("failures are not cached", () => {
    let fail = true;
    const flaky: Tokenizer = {
      name: "flaky",
      encoding: "x",
      count: () => {
        if (fail) throw new Error("transient");
        return 7;
      },
    };
    expect(tryCountTokens("t", { tokenizer: flaky }).ok).toBe(false);
    fail = false;
    expect(countTokens("t", { tokenizer: flaky })).toBe(7);
  });
});
