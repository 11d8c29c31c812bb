import { describe, expect, it } from "vitest";
import { run, tempFile } from "./helpers.js";

describe("aref budget check", () => {
  it("a prompt within budget: exit 0", async () => {
    const r = await run(["budget", "check", tempFile("p.txt", "You are helpful.\nFix the bug."), "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.json()).toMatchObject({
      schema: "artifact-refs.budget-check.v1",
      ok: true,
      violations: [],
      encoding: "cl100k_base",
    });
    expect(r.json().budgets.maxPromptTokens).toBe(8000);
  });

  it("lists every violation of a structured prompt, with exit 6", async () => {
    const prompt = {
      system: "You are a coding agent.",
      hot_state: {
        session_id: "s1",
        artifact_index: Array.from({ length: 25 }, (_, i) => ({
          artifact_id: `art:${i.toString(16).padStart(12, "0")}`,
          type: "log",
        })),
      },
      messages: [{ role: "user", content: "word ".repeat(9000) }],
      rag_chunks: Array.from({ length: 12 }, (_, i) => `chunk ${i}`),
      inline_artifacts: ["x".repeat(3000)],
    };
    const r = await run(["budget", "check", tempFile("turn.json", JSON.stringify(prompt)), "--json"]);
    expect(r.code).toBe(6);
    const receipt = r.json();
    expect(receipt.ok).toBe(false);
    expect(receipt.violations.map((v: { budget: string }) => v.budget)).toEqual([
      "maxArtifactIndexEntries",
      "maxPromptTokens",
      "maxRagChunks",
      "maxInlineArtifactChars",
    ]);
    const human = await run(["budget", "check", tempFile("turn.json", JSON.stringify(prompt))]);
    expect(human.code).toBe(6);
    expect(human.out).toMatch(
      /^4 budget violations \(cl100k_base\):\n {2}maxArtifactIndexEntries: artifact index is 25 entries, over the budget of 20/,
    );
  });

  it("environment overrides the budgets; an invalid one is CONFIG_INVALID (exit 4)", async () => {
    const path = tempFile("p.txt", "word ".repeat(100));
    const tight = await run(["budget", "check", path, "--json"], {
      env: { AREF_MAX_PROMPT_TOKENS: "50", AREF_MAX_HOT_STATE_TOKENS: "40" },
    });
    expect(tight.code).toBe(6);
    expect(tight.json().violations[0]).toMatchObject({ budget: "maxPromptTokens", limit: 50 });
    const inconsistent = await run(["budget", "check", path, "--json"], { env: { AREF_MAX_PROMPT_TOKENS: "50" } });
    expect(inconsistent.code).toBe(4);
    expect(inconsistent.json().error.message).toMatch(/maxHotStateTokens must not exceed maxPromptTokens/);
    const bad = await run(["budget", "check", path, "--json"], { env: { AREF_MAX_PROMPT_TOKENS: "-3" } });
    expect(bad.code).toBe(4);
    expect(bad.json().error).toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringContaining("AREF_MAX_PROMPT_TOKENS"),
    });
  });

  it("every budget is a flag too, and a flag wins over the environment", async () => {
    const path = tempFile("p.txt", "word ".repeat(100));
    const tight = await run([
      "budget",
      "check",
      path,
      "--json",
      "--max-prompt-tokens",
      "50",
      "--max-hot-state-tokens",
      "40",
    ]);
    expect(tight.code).toBe(6);
    expect(tight.json().violations[0]).toMatchObject({ budget: "maxPromptTokens", limit: 50 });
    const wins = await run(["budget", "check", path, "--json", "--max-prompt-tokens", "5000"], {
      env: { AREF_MAX_PROMPT_TOKENS: "10" },
    });
    expect(wins.code).toBe(0);
    expect(wins.json().budgets).toMatchObject({ maxPromptTokens: 5000 });
    const all = await run([
      "budget",
      "check",
      path,
      "--json",
      "--max-artifact-index-entries",
      "3",
      "--max-rag-chunks",
      "2",
      "--max-inline-artifact-chars",
      "99",
    ]);
    expect(all.json().budgets).toMatchObject({
      maxArtifactIndexEntries: 3,
      maxRagChunks: 2,
      maxInlineArtifactChars: 99,
    });
    const bad = await run(["budget", "check", path, "--json", "--max-prompt-tokens", "lots"]);
    expect(bad.code).toBe(4);
    expect(bad.json().error.message).toMatch(/--max-prompt-tokens "lots" is not a whole number/);
  });

  it("bad prompt files: invalid JSON and a wrong shape name the problem (exit 4)", async () => {
    const notJson = await run(["budget", "check", tempFile("x.json", "{nope")]);
    expect(notJson.code).toBe(4);
    expect(notJson.err).toMatch(/is not valid JSON/);
    const shape = await run(["budget", "check", tempFile("y.json", JSON.stringify({ messages: [{ role: "user" }] }))]);
    expect(shape.code).toBe(4);
    expect(shape.err).toMatch(/messages\.0\.content/);
    const asText = await run(["budget", "check", tempFile("z.json", "{nope"), "--format", "text"]);
    expect(asText.code).toBe(0);
  });
});
