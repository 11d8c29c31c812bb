import Anthropic from "@anthropic-ai/sdk";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it, onTestFinished } from "vitest";
import { createAnthropicRefs } from "../src/index.js";
import { runExampleWithEnv } from "@artifact-refs/tooling/testing/examples";
import { expectScriptedLogRun } from "@artifact-refs/tooling/testing/log-run";
import {
  BIG_LOG_MIDDLE as MIDDLE,
  bigLog,
  logScript,
  startFakeAnthropic,
} from "@artifact-refs/tooling/testing/fake-anthropic";

const LOG = bigLog();

describe("Anthropic SDK adapter against a local Messages server", () => {
  it("tool_result blocks carry the ref, never the 100 KB payload; artifacts_get answers the grep", async () => {
    const fake = await startFakeAnthropic(logScript);
    onTestFinished(fake.close);
    const client = new Anthropic({ baseURL: fake.url, apiKey: "test-key", maxRetries: 0 });
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createAnthropicRefs({ store, session: "t1" });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "which tests failed?" }];
    let final = "";
    for (let turn = 0; turn < 5; turn++) {
      const reply = await client.messages.create({ model: "m", max_tokens: 100, messages, tools: refs.tools });
      messages.push({ role: "assistant", content: reply.content });
      const uses = reply.content.filter((b) => b.type === "tool_use");
      if (uses.length === 0) {
        final = reply.content.map((b) => (b.type === "text" ? b.text : "")).join("");
        break;
      }
      messages.push({ role: "user", content: await Promise.all(uses.map((u) => refs.toolResultBlock(u, () => LOG))) });
    }
    expect(final).toBe("found 4 failures");
    expect(fake.requests).toHaveLength(3);
    const id = (await store.listReferences("t1"))[0]!.artifact_id;
    const short = await store.shortRef(id, { session: "t1" });
    for (const r of fake.requests) {
      expect(r.path).toBe("/v1/messages");
      expect(r.headers["x-api-key"] ?? r.headers.authorization).toMatch(/test-key/);
      expect(r.raw).not.toContain(MIDDLE);
      expect(r.raw.length).toBeLessThan(12_000);
    }
    expect(fake.requests[0]!.body.tools).toEqual([
      expect.objectContaining({
        name: "artifacts_get",
        input_schema: expect.objectContaining({ type: "object", required: ["ref"] }),
      }),
    ]);
    const second = fake.requests[1]!.body.messages as Array<{
      role: string;
      content: Array<{ type: string; tool_use_id: string; content: string }>;
    }>;
    const stashed = second.at(-1)!.content[0]!;
    expect(stashed).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
    expect(JSON.parse(stashed.content)).toMatchObject({
      artifact_reference: short,
      size_bytes: Buffer.byteLength(LOG),
    });
    const third = fake.requests[2]!.body.messages as typeof second;
    // Plain text: the matching lines as stored, then what they were (no JSON to unescape).
    const fetched = third.at(-1)!.content[0]!.content;
    expect(fetched).toContain(`[artifacts_get: `);
    expect(fetched.match(/^\d+:FAIL/gm)).toHaveLength(4);
    expect(await store.getText(id)).toBe(LOG);
  });

  it("small outputs stay inline; bad artifacts_get calls come back with is_error", async () => {
    const refs = createAnthropicRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "t2" });
    const small = await refs.toolResultBlock({ id: "u1", name: "add", input: { a: 1 } }, "3");
    expect(small).toEqual({ type: "tool_result", tool_use_id: "u1", content: "3" });
    const bad = await refs.handleToolUse({
      type: "tool_use",
      id: "u2",
      name: "artifacts_get",
      input: { ref: `art:${"0".repeat(12)}` },
    });
    expect(bad).toMatchObject({ type: "tool_result", tool_use_id: "u2", is_error: true });
    expect(bad!.content).toMatch(/^NOT_FOUND: /);
    const noRef = await refs.handleToolUse({ id: "u3", name: "artifacts_get", input: { selector: { mode: "grep" } } });
    expect(noRef!.content).toMatch(/^INVALID_INPUT: /);
    expect(await refs.handleToolUse({ id: "u4", name: "other", input: {} })).toBeUndefined();
    await expect(refs.toolResultBlock({ id: "u5", name: "other", input: {} })).rejects.toThrow(
      /no output given for tool other/,
    );
    expect(() =>
      createAnthropicRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "" }),
    ).toThrow(/invalid session id/);
    // A malformed message list is INVALID_INPUT naming the message, not a TypeError inside the adapter.
    for (const [request, what] of [
      [undefined, /messages must be an array, got undefined/],
      [{ messages: null }, /messages must be an array, got null/],
      [{ messages: [{ role: "bogus", content: "x" }] }, /message 0 has no role of user, assistant/],
      [
        {
          messages: [
            { role: "user", content: "a" },
            { role: "assistant", content: 7 },
          ],
        },
        /message 1 \(assistant\): content/,
      ],
    ] as const)
      await expect(refs.prompt(request as never)).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(what),
      });
  });

  it("examples/messages.ts runs as written against the local server", async () => {
    const fake = await startFakeAnthropic(logScript);
    onTestFinished(fake.close);
    const stdout = await runExampleWithEnv(new URL("../examples/messages.ts", import.meta.url), {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "test-key",
    });
    expectScriptedLogRun(stdout, fake.requests);
  });
});
