import { hasErrorCode } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { countTokens, encodingForModel, getTokenizer, resolveEncoding } from "@artifact-refs/budget";

describe("model → encoding", () => {
  it.each([
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-mini-2024-07-18", "o200k_base"],
    ["gpt-4.1-nano", "o200k_base"],
    ["o1", "o200k_base"],
    ["o3-mini", "o200k_base"],
    ["o4-mini", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["gpt-5.1-codex", "o200k_base"],
    ["openai/gpt-4o", "o200k_base"],
    ["GPT-4O", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-turbo", "cl100k_base"],
    ["gpt-3.5-turbo", "cl100k_base"],
    ["text-embedding-3-small", "cl100k_base"],
  ])("%s → %s", (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
    expect(resolveEncoding({ model })).toEqual({ encoding, known: true });
  });

  it("does not match a prefix that only looks alike", () => {
    expect(encodingForModel("gpt-40")).toBeUndefined();
    expect(encodingForModel("o10")).toBeUndefined();
  });

  it("unknown model: default encoding plus a warning", () => {
    const r = resolveEncoding({ model: "claude-sonnet-4" });
    expect(r.encoding).toBe("cl100k_base");
    expect(r.known).toBe(false);
    expect(r.warning).toMatch(/unknown model "claude-sonnet-4"/);
    const warnings: string[] = [];
    const tok = getTokenizer({ model: "claude-sonnet-4", onWarning: (w) => warnings.push(w) });
    expect(tok.encoding).toBe("cl100k_base");
    expect(tok.warning).toMatch(/estimate/);
    expect(warnings).toHaveLength(1);
    tok.dispose();
    const seen: string[] = [];
    expect(countTokens("hello world", { model: "mystery-9", onWarning: (w) => seen.push(w) })).toBe(2);
    expect(seen[0]).toMatch(/mystery-9/);
  });

  it("unknown model in strict mode is an error", () => {
    let error: unknown;
    try {
      getTokenizer({ model: "claude-sonnet-4", strict: true });
    } catch (e) {
      error = e;
    }
    expect(hasErrorCode(error, "INVALID_INPUT")).toBe(true);
    expect((error as Error).message).toMatch(/unknown model "claude-sonnet-4" \(strict mode\)/);
    expect(() => countTokens("x", { model: "nope", strict: true })).toThrow(/strict/);
  });

  it("an explicit encoding wins; an unknown encoding is an error", () => {
    expect(resolveEncoding({ model: "gpt-4", encoding: "o200k_base" }).encoding).toBe("o200k_base");
    expect(() => resolveEncoding({ encoding: "p50k_base" })).toThrow(/unknown encoding "p50k_base"/);
  });

  it("no model: the default encoding, no warning", () => {
    expect(resolveEncoding({})).toEqual({ encoding: "cl100k_base", known: true });
  });
});
