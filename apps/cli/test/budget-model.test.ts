// `aref budget check --model M`: the prompt budget defaults to M's context window (less its
// longest answer) when the model is known; on the built binary.
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, spawnCli, tempFile } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: build the CLI first (pnpm --filter @artifact-refs/cli... build)`);
});

describe("aref budget check --model", () => {
  const prompt = tempFile("p.txt", "word ".repeat(20_000)); // ~20,000 tokens: over 8,000, within any large window

  it("a known model's context window sets the prompt budget; without --model it stays 8,000", async () => {
    const plain = await spawnCli(["budget", "check", prompt, "--json"]);
    expect(plain.code).toBe(6);
    expect(JSON.parse(plain.out).budgets.maxPromptTokens).toBe(8000);

    const gpt4o = await spawnCli(["budget", "check", prompt, "--model", "gpt-4o", "--json"]);
    expect(gpt4o.code, gpt4o.err).toBe(0);
    const receipt = JSON.parse(gpt4o.out);
    // gpt-4o: a 128,000-token window, answers up to 16,384 tokens
    expect(receipt.budgets.maxPromptTokens).toBe(128_000 - 16_384);
    expect(receipt.prompt_budget_from).toMatch(
      /^gpt-4o's context window \(128,000 tokens, less 16,384 for the answer\)$/,
    );
    const human = await spawnCli(["budget", "check", prompt, "--model", "gpt-4o"]);
    expect(human.err).toContain("prompt budget 111,616 tokens, from gpt-4o's context window");
    // a smaller window is a smaller budget
    const small = await spawnCli(["budget", "check", prompt, "--model", "gpt-3.5-turbo", "--json"]);
    expect(small.code).toBe(6);
    expect(JSON.parse(small.out).budgets.maxPromptTokens).toBeLessThan(16_385);
  });

  it("AREF_MAX_PROMPT_TOKENS still wins; an unknown model keeps the default and warns", async () => {
    const env = await spawnCli(["budget", "check", prompt, "--model", "gpt-4o", "--json"], {
      env: { AREF_MAX_PROMPT_TOKENS: "30000" },
    });
    expect(JSON.parse(env.out).budgets.maxPromptTokens).toBe(30_000);
    expect(JSON.parse(env.out).prompt_budget_from).toBeUndefined();
    const unknown = await spawnCli(["budget", "check", prompt, "--model", "no-such-model-x", "--json"]);
    expect(unknown.code).toBe(6);
    expect(JSON.parse(unknown.out).budgets.maxPromptTokens).toBe(8000);
    expect(JSON.parse(unknown.out).warnings.join(" ")).toMatch(/no-such-model-x/);
  });
});
