import { createOpenAI } from "@ai-sdk/openai";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import { createMastraRefs, historyBudget } from "../src/index.js";
import { startFakeStreamingOpenAI } from "@artifact-refs/tooling/testing/fake-openai";

/** ~120 KB tool output, different for each turn; its middle line must never reach a request. */
function log120k(turn: number): string {
  const lines = Array.from({ length: 2400 }, (_, i) =>
    i === 1199
      ? `ok 1200 turn ${turn} middle`
      : (i + 1) % 600 === 0
        ? `FAIL turn ${turn} test/case-${i + 1}.test.ts`
        : `ok ${i + 1} turn ${turn} test/case-${i + 1}.test.ts ${"-".repeat(12)}`,
  );
  return `${lines.join("\n")}\n`;
}

const messagesOf = (body: Record<string, unknown>) => body.messages as Array<{ role: string }>;

describe("historyBudget: a Mastra input processor that keeps every model call inside a budget", () => {
  it("200 turns of one conversation (a real Agent, the app carrying the history) stay inside the budget, every request", async () => {
    const fake = await startFakeStreamingOpenAI((raw) =>
      messagesOf(JSON.parse(raw)).at(-1)!.role === "user"
        ? { tool: "read_log", args: { path: "test.log" } }
        : { text: "read it" },
    );
    onTestFinished(fake.close);
    const refs = createMastraRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "m-200" });
    let turn = 0;
    const readLog = createTool({
      id: "read_log",
      description: "Read the test log",
      inputSchema: z.object({ path: z.string() }),
      execute: async () => log120k(turn),
    });
    const budget = 20_000;
    const agent = new Agent({
      name: "tester",
      instructions: "Answer from the test log.",
      model: createOpenAI({ baseURL: fake.url, apiKey: "k" }).chat("m"),
      tools: refs.withArtifacts({ read_log: readLog }),
      inputProcessors: [historyBudget({ maxInputChars: budget })],
    });
    let history: unknown[] = [];
    for (turn = 0; turn < 200; turn++) {
      const user = { role: "user", content: `turn ${turn}: what failed?` };
      const result = await agent.generate([...history, user] as never, { maxSteps: 5 });
      expect(result.text).toBe("read it");
      history = [...history, user, ...((result.response as { messages?: unknown[] }).messages ?? [])];
    }
    expect(fake.requests).toHaveLength(400);
    expect(JSON.stringify(history).length).toBeGreaterThan(budget * 5); // without the budget the input would be far over
    const sizes = fake.requests.map((r) => JSON.stringify(messagesOf(r.body)).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);
    for (const [i, r] of fake.requests.entries()) expect(r.raw, `request ${i}`).not.toMatch(/ok 1200 turn \d+ middle/);
    // The latest turn stays whole (its ref reaches the model); older outputs keep their refs in one line.
    const last = fake.requests.at(-1)!.raw;
    expect(last).toMatch(/stored as art:[0-9a-f]{12,}/);
    expect(last).toMatch(/older output of read_log left out to stay in budget; stored as art:[0-9a-f]{12,}/);
    expect(last).toContain("turn 199: what failed?");
  }, 240_000);

  it("fails closed when the latest turn alone is over the budget; bad options get a clear error", () => {
    const processor = historyBudget({ maxInputChars: 100 });
    const message = {
      id: "m1",
      role: "user" as const,
      createdAt: new Date(0),
      content: { format: 2 as const, parts: [{ type: "text" as const, text: "x".repeat(500) }] },
    };
    expect(() => processor.processInput({ messages: [message], abort: (() => undefined) as never })).toThrow(
      /over the budget of 100/,
    );
    const roomy = historyBudget({ maxInputChars: 10_000 });
    const same = [message];
    expect(roomy.processInput({ messages: same, abort: (() => undefined) as never })).toBe(same);
    expect(() => historyBudget({ maxInputChars: 0 })).toThrow(/maxInputChars must be a positive integer/);
  });
});
