import { hasErrorCode } from "@artifact-refs/schema";
import { errorOf } from "@artifact-refs/tooling/testing/errors";
import { describe, expect, it } from "vitest";
import { DEFAULT_BUDGET, loadBudgetConfig, resolveBudgetConfig } from "@artifact-refs/budget";

describe("budget config", () => {
  it("defaults are the §references table, with the seed's warning thresholds", () => {
    expect(loadBudgetConfig({})).toEqual({
      maxHotStateTokens: 1000,
      maxArtifactIndexEntries: 20,
      maxPromptTokens: 8000,
      maxRagChunks: 10,
      maxInlineArtifactChars: 2000,
      warnHotStateTokens: 800,
      warnArtifactIndexEntries: 15,
      warnPromptTokens: 6000,
    });
    expect(DEFAULT_BUDGET).toEqual(loadBudgetConfig({}));
  });

  it("environment overrides each budget; warnings follow the caps", () => {
    const config = loadBudgetConfig({
      AREF_MAX_HOT_STATE_TOKENS: "2000",
      AREF_MAX_ARTIFACT_INDEX_ENTRIES: "40",
      AREF_MAX_PROMPT_TOKENS: "16000",
      AREF_MAX_RAG_CHUNKS: "5",
      AREF_MAX_INLINE_ARTIFACT_CHARS: "4000",
    });
    expect(config).toMatchObject({
      maxHotStateTokens: 2000,
      maxArtifactIndexEntries: 40,
      maxPromptTokens: 16000,
      maxRagChunks: 5,
      maxInlineArtifactChars: 4000,
      warnHotStateTokens: 1600,
      warnArtifactIndexEntries: 30,
      warnPromptTokens: 12000,
    });
  });

  it("environment wins over the base config; empty variables are unset", () => {
    const config = loadBudgetConfig(
      { AREF_MAX_RAG_CHUNKS: "3", AREF_MAX_PROMPT_TOKENS: "" },
      { maxRagChunks: 7, maxPromptTokens: 9000 },
    );
    expect(config.maxRagChunks).toBe(3);
    expect(config.maxPromptTokens).toBe(9000);
  });

  it.each([
    ["AREF_MAX_PROMPT_TOKENS", "abc", /AREF_MAX_PROMPT_TOKENS="abc" is not a whole number/],
    ["AREF_MAX_PROMPT_TOKENS", "-5", /not a whole number/],
    ["AREF_MAX_HOT_STATE_TOKENS", "1.5", /not a whole number/],
    ["AREF_MAX_HOT_STATE_TOKENS", "1e3", /not a whole number/],
    ["AREF_MAX_HOT_STATE_TOKENS", "0", /out of range/],
    ["AREF_MAX_PROMPT_TOKENS", "99999999999", /out of range/],
    ["AREF_MAX_RAG_CHUNKS", "1000000", /AREF_MAX_RAG_CHUNKS=1000000 is out of range/],
  ])("invalid %s=%s is CONFIG_INVALID naming the variable", (variable, value, message) => {
    const error = errorOf(() => loadBudgetConfig({ [variable]: value }));
    expect(hasErrorCode(error, "CONFIG_INVALID")).toBe(true);
    expect(error.message).toMatch(message);
    expect(error.message).toContain(variable);
  });

  it.each([
    [{ maxPromptTokens: -1 }, /maxPromptTokens: maxPromptTokens must be at least 1/],
    [{ maxRagChunks: 2.5 }, /maxRagChunks must be a whole number/],
    [{ maxInlineArtifactChars: 1e12 }, /maxInlineArtifactChars must be at most 10,000,000/],
    [{ maxArtifactIndexEntries: Number.NaN }, /maxArtifactIndexEntries/],
    [{ maxHotStateTokens: 9000, maxPromptTokens: 8000 }, /maxHotStateTokens must not exceed maxPromptTokens/],
    [{ maxTokens: 5 }, /Unrecognized key/],
    [{ maxPromptTokens: "8000" }, /maxPromptTokens must be a number/],
  ])("a config with negative or absurd values is refused: %j", (input, message) => {
    const error = errorOf(() => resolveBudgetConfig(input));
    expect(hasErrorCode(error, "CONFIG_INVALID")).toBe(true);
    expect(error.message).toMatch(message);
  });

  it("a non-object config is refused", () => {
    expect(() => resolveBudgetConfig(null)).toThrow(/expected an object/);
    expect(() => resolveBudgetConfig([1])).toThrow(/expected an object/);
  });

  it("the config is frozen", () => {
    const config = loadBudgetConfig({});
    expect(Object.isFrozen(config)).toBe(true);
  });
});
