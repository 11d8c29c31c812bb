import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAIProvider, ScriptedProvider, runDemo, selectProvider, toAnthropic } from "@artifact-refs/demo-agent";
import { startFakeOpenAI } from "@artifact-refs/tooling/testing/fake-openai";

const MIDDLE = "MIDDLE-MARKER-7f3a9c";

function bigWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "aref-ws-"));
  const lines = Array.from({ length: 2_500 }, (_, i) =>
    i === 1_250 ? `line ${i}: ${MIDDLE} the interesting part` : `line ${i}: ${"x".repeat(30)} ok`,
  );
  writeFileSync(join(dir, "big.log"), lines.join("\n")); // ~100 KB
  return dir;
}

describe("OpenAI-compatible provider over the wire (local server speaking the OpenAI format)", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it("sends the reference, never the 100 KB payload, and fetches a bounded slice", async () => {
    const fake = await startFakeOpenAI((raw, index) => {
      if (index === 0) return { tool: "read_file", args: { path: "big.log" } };
      const { messages } = JSON.parse(raw) as { messages: Array<{ content: string | null }> };
      const ref = /art:[0-9a-f]{12,}/.exec(String(messages.at(-1)!.content))?.[0];
      if (index === 1 && ref)
        return {
          tool: "artifacts_get",
          args: { ref, selector: { mode: "grep", pattern: "MIDDLE-MARKER", context: 1 } },
        };
      return { text: "The interesting part is on line 1250." };
    });
    close = fake.close;
    const summary = await runDemo({
      provider: new OpenAIProvider({ baseURL: fake.url, apiKey: "test-key", model: "fake-model" }),
      store: "memory:",
      workspace: bigWorkspace(),
      outDir: mkdtempSync(join(tmpdir(), "aref-demo-out-")),
      requests: ["Load big.log and find the interesting part."],
      allowedCommands: [],
      strategy: "window",
    });
    expect(fake.requests.length).toBe(3);
    expect((fake.requests[0]!.body.tools as unknown[] | undefined)?.length).toBeGreaterThanOrEqual(4);
    for (const call of fake.requests) {
      expect(call.path).toBe("/v1/chat/completions");
      expect(call.raw.length).toBeLessThan(40_000); // the 100 KB file never travels whole
      expect(call.body.model).toBe("fake-model");
    }
    expect(fake.requests[1]!.raw).toMatch(/art:[0-9a-f]{12}/);
    expect(fake.requests[1]!.raw).not.toContain(MIDDLE);
    expect(fake.requests[2]!.raw).toContain(MIDDLE); // the bounded fetch brought exactly the needed slice
    expect(summary.requests[0]!.answer).toBe("The interesting part is on line 1250.");
    expect(summary.rehydrationMismatches).toBe(0);
    expect(summary.calls.every((c) => c.budgetOk)).toBe(true);
  });

  it("reports a provider error clearly", async () => {
    const provider = new OpenAIProvider({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k" });
    await expect(provider.complete({ messages: [{ role: "user", content: "hi" }], tools: [] })).rejects.toThrow(
      /connect|Connection/i,
    );
  });
});

describe("provider selection", () => {
  it("defaults to the scripted policy without keys and picks providers from the environment", () => {
    expect(selectProvider("auto", {})).toBeInstanceOf(ScriptedProvider);
    expect(selectProvider("auto", { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }).kind).toBe("openai");
    expect(selectProvider("auto", { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }).promptCaching).toBe(false);
    expect(selectProvider("auto", { ANTHROPIC_API_KEY: "k" }).kind).toBe("anthropic");
    expect(() => selectProvider("openai", {})).toThrow(/OPENAI_API_KEY or OPENAI_BASE_URL/);
    expect(() => selectProvider("anthropic", {})).toThrow(/ANTHROPIC_API_KEY/);
  });

  it("maps tool calls and results onto Anthropic's content blocks", () => {
    const mapped = toAnthropic([
      { role: "system", content: "sys" },
      { role: "user", content: "task" },
      { role: "assistant", content: "", tool_calls: [{ id: "t1", name: "read_file", arguments: '{"path":"a"}' }] },
      { role: "tool", content: "result", tool_call_id: "t1" },
    ]);
    expect(mapped.system).toBe("sys");
    expect(mapped.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "task" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "result" }] },
    ]);
  });
});
