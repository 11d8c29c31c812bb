import OpenAI from "openai";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it, onTestFinished } from "vitest";
import { createOpenAIRefs } from "../src/index.js";
import {
  BIG_LOG_MIDDLE as MIDDLE,
  bigLog,
  logScript,
  startFakeOpenAI,
} from "@artifact-refs/tooling/testing/fake-openai";

const LOG = bigLog();

function newRefs() {
  const store = new ArtifactStore({ driver: new MemoryDriver() });
  return { store, refs: createOpenAIRefs({ store, session: "t1" }) };
}

describe("OpenAI SDK adapter against a local Chat Completions server", () => {
  it("externalizes the 100 KB tool output: requests carry the ref, never the payload; artifacts_get answers", async () => {
    const fake = await startFakeOpenAI(logScript);
    onTestFinished(fake.close);
    const client = new OpenAI({ baseURL: fake.url, apiKey: "test-key", maxRetries: 0 });
    const { store, refs } = newRefs();
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "which tests failed?" }];
    for (let turn = 0; turn < 5; turn++) {
      const reply = (await client.chat.completions.create({ model: "m", messages, tools: refs.tools })).choices[0]!
        .message;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const call of reply.tool_calls)
        if (call.type === "function") messages.push(await refs.toolMessage(call, () => LOG));
    }
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "found 4 failures" });
    expect(fake.requests).toHaveLength(3);
    const id = (await store.listReferences("t1"))[0]!.artifact_id;
    const short = await store.shortRef(id, { session: "t1" });
    for (const r of fake.requests) {
      expect(r.path).toBe("/v1/chat/completions");
      expect(r.raw).not.toContain(MIDDLE);
      expect(r.raw.length).toBeLessThan(12_000);
    }
    expect(fake.requests[0]!.body.tools).toEqual([
      { type: "function", function: expect.objectContaining({ name: "artifacts_get" }) },
    ]);
    // Request 2 carries the reference (not the log); request 3 carries the bounded artifacts_get answer.
    expect(fake.requests[1]!.raw).toContain(short);
    expect(fake.requests[1]!.raw).toContain("artifact_reference");
    const third = fake.requests[2]!.body.messages as Array<{ role: string; content: string }>;
    // Plain text: the matching lines as stored, then what they were (no JSON to unescape).
    const answer = third.at(-1)!.content;
    expect(answer).toContain(`[artifacts_get: `);
    expect(answer).toContain(` of ${short}`);
    expect(answer.match(/^\d+:FAIL/gm)).toHaveLength(4);
    expect(await store.getText(id)).toBe(LOG);
  });

  it("keeps small outputs inline and answers artifacts_get errors as tool content", async () => {
    const { refs } = newRefs();
    const small = await refs.toolMessage(
      { id: "c1", type: "function", function: { name: "add", arguments: '{"a":1}' } },
      { sum: 3 },
    );
    expect(small).toMatchObject({ role: "tool", tool_call_id: "c1" });
    expect(JSON.parse(small.content)).toEqual({ sum: 3 });
    const bad = await refs.handleToolCall({
      id: "c2",
      type: "function",
      function: { name: "artifacts_get", arguments: '{"ref":"art:nothex"}' },
    });
    expect(bad!.content).toMatch(/^INVALID_HANDLE: /);
    const notJson = await refs.handleToolCall({
      id: "c3",
      type: "function",
      function: { name: "artifacts_get", arguments: "{oops" },
    });
    expect(notJson!.content).toMatch(/^INVALID_INPUT: /);
    // Neither OpenAI shape has an error field: the text says it, in both APIs alike.
    expect(Object.keys(bad!).sort()).toEqual(["content", "role", "tool_call_id"]);
    const badOutput = await refs.functionCallOutput({ call_id: "c6", name: "artifacts_get", arguments: "{oops" });
    expect(badOutput).toEqual({ type: "function_call_output", call_id: "c6", output: notJson!.content });
    expect(
      await refs.handleToolCall({ id: "c4", type: "function", function: { name: "other", arguments: "{}" } }),
    ).toBeUndefined();
    await expect(refs.toolMessage({ id: "c5", function: { name: "other", arguments: "{}" } })).rejects.toThrow(
      /no output given for tool other/,
    );
    expect(() =>
      createOpenAIRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "bad session" }),
    ).toThrow(/invalid session id/);
    expect(() => createOpenAIRefs(undefined as never)).toThrow(/needs \{ store, session \}/);
    // A malformed message list is INVALID_INPUT naming the message, not a TypeError inside the adapter.
    for (const [messages, what] of [
      [undefined, /messages must be an array, got undefined/],
      [[{ role: "bogus", content: "x" }], /message 0 has no role of system, developer, user, assistant, tool/],
      [
        [
          { role: "user", content: "a" },
          { role: "user", content: 7 },
        ],
        /message 1 \(user\): content/,
      ],
    ] as const)
      await expect(refs.prompt(messages as never)).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(what),
      });
    // An assistant message with only tool calls has null content: that is valid.
    const ok = await refs.prompt([
      { role: "user", content: "read it" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "read_log", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
    ] as never);
    expect(ok.at(-1)).toMatchObject({ role: "tool", tool_call_id: "c1", content: "ok" });
  });
});

describe("OpenAI SDK adapter against a local Responses server", () => {
  it("function_call_output items carry the ref, never the payload", async () => {
    const fake = await startFakeOpenAI(logScript);
    onTestFinished(fake.close);
    const client = new OpenAI({ baseURL: fake.url, apiKey: "test-key", maxRetries: 0 });
    const { refs } = newRefs();
    const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "which tests failed?" }];
    let final = "";
    for (let turn = 0; turn < 5; turn++) {
      const response = await client.responses.create({ model: "m", input, tools: refs.responsesTools });
      input.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
      const calls = response.output.filter((item) => item.type === "function_call");
      if (calls.length === 0) {
        final = response.output_text;
        break;
      }
      for (const call of calls) input.push(await refs.functionCallOutput(call, () => LOG));
    }
    expect(final).toBe("found 4 failures");
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/responses", "/v1/responses", "/v1/responses"]);
    for (const r of fake.requests) expect(r.raw).not.toContain(MIDDLE);
    expect(fake.requests[0]!.body.tools).toEqual([
      expect.objectContaining({ type: "function", name: "artifacts_get", strict: false }),
    ]);
    const outputs = (fake.requests[2]!.body.input as Array<{ type?: string; output?: string }>).filter(
      (i) => i.type === "function_call_output",
    );
    expect(outputs).toHaveLength(2);
    expect(outputs[0]!.output).toMatch(/"artifact_reference":"art:[0-9a-f]{12,}"/);
    expect(outputs[1]!.output).toContain("FAIL test/case-2000");
  });
});
