// What the model reads from artifacts_get through the Anthropic adapter is plain text (the selected
// content, then lines on what it was and the call for the next part), and following the call it
// names rebuilds the content; a bad call reads `CODE: message` with a hint naming a tool, is_error.
import { expectPlainError, itFollowsPlainAnswers } from "@artifact-refs/tooling/testing/follow-next";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createAnthropicRefs } from "../src/index.js";

const store = new ArtifactStore({ driver: new MemoryDriver() });
const refs = createAnthropicRefs({ store, session: "plain" });
let n = 0;

async function ask(input: unknown): Promise<{ content: string; is_error?: boolean }> {
  const id = `toolu_${++n}`;
  const block = await refs.handleToolUse({ type: "tool_use", id, name: "artifacts_get", input });
  expect(block).toMatchObject({ type: "tool_result", tool_use_id: id });
  return block as { content: string; is_error?: boolean };
}

describe("Anthropic adapter: artifacts_get answers in plain text", () => {
  itFollowsPlainAnswers(
    (content, mime) => store.put(content, { session: "plain", mime }),
    async (ref, selector) => {
      const block = await ask({ ref, selector });
      expect(block.is_error).toBeUndefined();
      return block.content;
    },
  );

  it("answers bad calls with is_error, CODE: message and a hint naming a tool, never a command line", async () => {
    const missing = await ask({ ref: `art:${"0".repeat(12)}` });
    expect(missing.is_error).toBe(true);
    expectPlainError(missing.content, "NOT_FOUND");
    expect(missing.content).toMatch(/artifacts_list|artifacts_get/);
    const bad = await ask({ ref: "art:nothex" });
    expect(bad.is_error).toBe(true);
    expectPlainError(bad.content, "INVALID_HANDLE");
  });
});
