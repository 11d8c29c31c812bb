import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { countTokens } from "@artifact-refs/budget";
import { createOpenAIRefs, type ChatMessage } from "../src/index.js";

const LOG = Array.from(
  { length: 800 },
  (_, i) => `line ${i}: test_${i % 37} ${i % 11 === 0 ? "FAILED" : "passed"} in ${i * 7}ms`,
).join("\n");

describe("OpenAI refs.prompt: the shared assembler", () => {
  it("a 200-turn chat with large tool outputs stays inside the default budget and never throws", async () => {
    const refs = createOpenAIRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "oa-long" });
    const messages: ChatMessage[] = [
      { role: "system", content: "You are a careful agent." },
      { role: "user", content: "Find every failing test." },
    ];
    for (let turn = 1; turn <= 200; turn++) {
      const call = {
        id: `call_${turn}`,
        type: "function",
        function: { name: "read_log", arguments: JSON.stringify({ part: turn }) },
      };
      messages.push({ role: "assistant", content: null, tool_calls: [call] });
      // Raw output straight into the history (not through toolMessage): the assembler still stores it.
      messages.push({ role: "tool", tool_call_id: call.id, content: `${turn}\n${LOG}` });
      if (turn % 40 === 0) messages.push({ role: "user", content: `also check ${"timeouts ".repeat(4_000)}` });
      const prompt = await refs.prompt(messages);
      const tokens = countTokens(
        prompt
          .map(
            (m) =>
              `${m.role}\n${typeof m.content === "string" ? m.content : ""}\n${JSON.stringify(m.tool_calls ?? [])}`,
          )
          .join("\n"),
      );
      expect(tokens).toBeLessThanOrEqual(8_000);
      // Every tool message answers a tool call of the assistant message before it.
      prompt.forEach((m, i) => {
        if (m.role !== "tool") return;
        let j = i - 1;
        while (j >= 0 && prompt[j]!.role === "tool") j--;
        expect(prompt[j]!.tool_calls?.some((c) => c.id === m.tool_call_id)).toBe(true);
      });
    }
  }, 120_000);

  it("a budget smaller than the irreducible part throws BUDGET_EXCEEDED naming the part", async () => {
    const refs = createOpenAIRefs({
      store: new ArtifactStore({ driver: new MemoryDriver() }),
      session: "oa-small",
      budgets: { maxPromptTokens: 30 },
    });
    await expect(
      refs.prompt([
        { role: "system", content: "You are a careful agent. ".repeat(40) },
        { role: "user", content: "go" },
      ]),
    ).rejects.toMatchObject({
      code: "BUDGET_EXCEEDED",
      message: expect.stringMatching(/over maxPromptTokens 30 .*largest: system prompt/),
      details: expect.objectContaining({ part: "system prompt" }),
    });
  });
});
