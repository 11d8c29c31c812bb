import { errorOf } from "@artifact-refs/tooling/testing/errors";
import { throwingTokenizer } from "@artifact-refs/tooling/testing/tokenizers";
import { describe, expect, it } from "vitest";
import {
  checkBudget,
  checkPromptBudget,
  countTokens,
  createMetricsRecorder,
  DEFAULT_BUDGET,
  memorySink,
  resolveBudgetConfig,
} from "@artifact-refs/budget";

describe("checkBudget", () => {
  it("passes within every budget", () => {
    const check = checkBudget({
      hotStateTokens: 1000,
      artifactIndexEntries: 20,
      promptTokens: 8000,
      ragChunks: 10,
      inlineArtifactChars: 2000,
    });
    expect(check).toEqual({
      ok: true,
      violations: [],
      checked: ["hotStateTokens", "artifactIndexEntries", "promptTokens", "ragChunks", "inlineArtifactChars"],
    });
  });

  it("returns every violation, never only the first", () => {
    const check = checkBudget({
      hotStateTokens: 1001,
      artifactIndexEntries: 21,
      promptTokens: 8001,
      ragChunks: 11,
      inlineArtifactChars: 2001,
    });
    expect(check.ok).toBe(false);
    expect(check.violations.map((v) => v.budget)).toEqual([
      "maxHotStateTokens",
      "maxArtifactIndexEntries",
      "maxPromptTokens",
      "maxRagChunks",
      "maxInlineArtifactChars",
    ]);
    expect(check.violations[2]).toEqual({
      budget: "maxPromptTokens",
      limit: 8000,
      actual: 8001,
      message: "prompt is 8,001 tokens, over the budget of 8,000 (maxPromptTokens)",
    });
  });

  it.each([null, Number.NaN, -3, Number.POSITIVE_INFINITY])(
    "fails closed on a measurement that could not be made (%s)",
    (value) => {
      const check = checkBudget({ promptTokens: value as number | null, hotStateTokens: 10 });
      expect(check.ok).toBe(false);
      expect(check.violations).toHaveLength(1);
      expect(check.violations[0]).toMatchObject({ budget: "maxPromptTokens", actual: null });
      expect(check.violations[0]!.message).toMatch(/could not be measured.*fail closed/);
    },
  );

  it("does not check what was not measured", () => {
    expect(checkBudget({})).toEqual({ ok: true, violations: [], checked: [] });
  });

  it("uses the given config", () => {
    const config = resolveBudgetConfig({ maxRagChunks: 2 });
    expect(checkBudget({ ragChunks: 3 }, config).violations[0]).toMatchObject({ limit: 2, actual: 3 });
  });
});

describe("checkPromptBudget", () => {
  it("counts every part and checks the sum", () => {
    const report = checkPromptBudget({
      system: "You are a helpful assistant.",
      hot_state: { session_id: "s1", artifact_index: [{ artifact_id: "art:0123456789ab", type: "log" }] },
      messages: [{ role: "user", content: "hello there" }],
      rag_chunks: ["chunk one", "chunk two"],
      inline_artifacts: ["x".repeat(2500)],
    });
    expect(report.measurements.artifactIndexEntries).toBe(1);
    expect(report.measurements.ragChunks).toBe(2);
    expect(report.measurements.inlineArtifactChars).toBe(2500);
    const parts = report.parts;
    const sum =
      (parts.system ?? 0) +
      (parts.hot_state ?? 0) +
      (parts.messages ?? 0) +
      (parts.rag_chunks ?? 0) +
      (parts.inline_artifacts ?? 0) +
      3 +
      3;
    expect(report.measurements.promptTokens).toBe(sum);
    expect(parts.system).toBe(countTokens("You are a helpful assistant."));
    expect(report.ok).toBe(false);
    expect(report.violations.map((v) => v.budget)).toEqual(["maxInlineArtifactChars"]);
    expect(report.encoding).toBe("cl100k_base");
  });

  it("a count failure makes the budget fail", () => {
    const broken = throwingTokenizer("tokenizer crashed");
    const report = checkPromptBudget({ prompt: "tiny prompt", hot_state: "{}" }, { tokenizer: broken });
    expect(report.ok).toBe(false);
    expect(report.measurements.promptTokens).toBeNull();
    expect(report.violations.map((v) => [v.budget, v.actual])).toEqual([
      ["maxHotStateTokens", null],
      ["maxPromptTokens", null],
    ]);
    expect(report.violations[1]!.message).toMatch(/tokenizer crashed/);
    expect(report.errors.length).toBeGreaterThan(0);
  });

  it("a whole prompt over the budget is a violation", () => {
    const report = checkPromptBudget({ prompt: "word ".repeat(9000) }, { config: DEFAULT_BUDGET });
    expect(report.ok).toBe(false);
    expect(report.violations[0]).toMatchObject({ budget: "maxPromptTokens", limit: 8000 });
    expect(report.violations[0]!.actual).toBeGreaterThan(8000);
  });

  it("refuses malformed input with the zod path", () => {
    expect(() => checkPromptBudget({ messages: [{ role: "user" }] } as never)).toThrow(/messages\.0\.content/);
  });
});

describe("bad input is INVALID_INPUT, never a TypeError", () => {
  it("checkBudget without a measurements object, countTokens with a non-string model, a recorder with bad sinks", () => {
    const codeOf = (fn: () => unknown) => {
      const error = errorOf(fn);
      return [error.code, error.message];
    };
    for (const value of [null, undefined, 42, "x", []]) {
      expect(
        codeOf(() => checkBudget(value as never)),
        String(value),
      ).toEqual(["INVALID_INPUT", expect.stringMatching(/measurements as an object/)]);
    }
    expect(codeOf(() => countTokens("x", { model: 42 as never }))).toEqual([
      "INVALID_INPUT",
      expect.stringMatching(/model must be a model name/),
    ]);
    expect(codeOf(() => countTokens("x", null as never))).toEqual([
      "INVALID_INPUT",
      expect.stringMatching(/options must be an object/),
    ]);
    expect(codeOf(() => createMetricsRecorder({ sinks: "x" as never }))).toEqual([
      "INVALID_INPUT",
      expect.stringMatching(/sinks/),
    ]);
    expect(codeOf(() => createMetricsRecorder({ sinks: [{ name: "n" }] as never }))).toEqual([
      "INVALID_INPUT",
      expect.stringMatching(/write/),
    ]);
    expect(codeOf(() => createMetricsRecorder({ sinks: [memorySink()], onWarning: 1 as never }))).toEqual([
      "INVALID_INPUT",
      expect.stringMatching(/onWarning/),
    ]);
  });
});
