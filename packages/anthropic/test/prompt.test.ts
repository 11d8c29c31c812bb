import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createAnthropicRefs, type AnthropicMessage } from "../src/index.js";

const LOG = Array.from(
  { length: 800 },
  (_, i) => `line ${i}: test_${i % 37} ${i % 11 === 0 ? "FAILED" : "passed"} in ${i * 7}ms`,
).join("\n");

describe("Anthropic refs.prompt: the shared assembler", () => {
  it("a 200-turn chat with large tool results stays inside the default budget, roles alternate, results follow their calls", async () => {
    const refs = createAnthropicRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "an-long" });
    const messages: AnthropicMessage[] = [{ role: "user", content: "Find every failing test." }];
    for (let turn = 1; turn <= 200; turn++) {
      messages.push({
        role: "assistant",
        content: [{ type: "tool_use", id: `tu_${turn}`, name: "read_log", input: { part: turn } }],
      });
      messages.push({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: `tu_${turn}`, content: `${turn}\n${LOG}` }],
      });
      const out = await refs.prompt({ system: "You are a careful agent.", messages });
      expect(out.messages[0]!.role).toBe("user");
      out.messages.forEach((m, i) => {
        if (i > 0) expect(m.role).not.toBe(out.messages[i - 1]!.role);
        if (m.role === "user" && Array.isArray(m.content))
          for (const b of m.content.filter((x) => x.type === "tool_result")) {
            const prev = out.messages[i - 1]!;
            expect(
              Array.isArray(prev.content) && prev.content.some((x) => x.type === "tool_use" && x.id === b.tool_use_id),
            ).toBe(true);
          }
      });
      expect(JSON.stringify(out).length).toBeLessThan(8_000 * 6);
    }
  }, 120_000);

  it("a tool_result flagged is_error keeps its flag through the assembler; the others get none", async () => {
    const refs = createAnthropicRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "an-err" });
    const out = await refs.prompt({
      messages: [
        { role: "user", content: "Read two artifacts." },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "tu_1", name: "artifacts_get", input: { ref: "art:000000000000" } },
            { type: "tool_use", id: "tu_2", name: "read_log", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "tu_1",
              content: "NOT_FOUND: no artifact art:000000000000",
              is_error: true,
            },
            { type: "tool_result", tool_use_id: "tu_2", content: "ok" },
          ],
        },
      ],
    });
    const results = out.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((b) => b.type === "tool_result") : [],
    );
    expect(results).toEqual([
      { type: "tool_result", tool_use_id: "tu_1", content: "NOT_FOUND: no artifact art:000000000000", is_error: true },
      { type: "tool_result", tool_use_id: "tu_2", content: "ok" },
    ]);
  });

  it("a budget smaller than the irreducible part throws BUDGET_EXCEEDED naming the part", async () => {
    const refs = createAnthropicRefs({
      store: new ArtifactStore({ driver: new MemoryDriver() }),
      session: "an-small",
      budgets: { maxPromptTokens: 30 },
    });
    await expect(
      refs.prompt({ system: "short", messages: [{ role: "user", content: "Do this task carefully. ".repeat(40) }] }),
    ).rejects.toMatchObject({
      code: "BUDGET_EXCEEDED",
      details: expect.objectContaining({ part: "task", over: expect.any(Number) }),
    });
  });
});
