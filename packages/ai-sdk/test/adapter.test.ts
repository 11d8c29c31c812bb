import { createOpenAI } from "@ai-sdk/openai";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel, type ModelMessage } from "ai";
import { describe, expect, it, onTestFinished } from "vitest";
import type { ExternalizedResult } from "@artifact-refs/context";
import { createAiSdkRefs, type AiSdkRefs } from "../src/index.js";
import { runExampleWithEnv } from "@artifact-refs/tooling/testing/examples";
import { expectScriptedLogRun } from "@artifact-refs/tooling/testing/log-run";
import {
  BIG_LOG_MIDDLE as MIDDLE,
  bigLog,
  logScript,
  startFakeOpenAI,
  type FakeOpenAI,
  type Script,
} from "@artifact-refs/tooling/testing/fake-openai";

const LOG = bigLog();

const readLog = tool({
  description: "Read the test log",
  inputSchema: jsonSchema<{ path?: string }>({ type: "object", properties: { path: { type: "string" } } }),
  execute: async () => LOG,
});

function checkRequests(f: FakeOpenAI, short: string) {
  expect(f.requests).toHaveLength(3);
  for (const r of f.requests) {
    expect(r.path).toBe("/v1/chat/completions");
    expect(r.raw).not.toContain(MIDDLE);
    expect(r.raw.length).toBeLessThan(12_000);
  }
  expect(f.requests[1]!.raw).toContain(short);
  const last = (f.requests[2]!.body.messages as Array<{ role: string; content: string }>).at(-1)!;
  expect(last.role).toBe("tool");
  // Plain text: the matching lines as stored, then what they were (no JSON to unescape).
  expect(last.content).toContain(`[artifacts_get: `);
  expect(last.content.match(/^\d+:FAIL/gm)).toHaveLength(4);
}

/** A local OpenAI server for this test (closed after it) and an AI SDK provider pointed at it. */
async function fakeProvider(script: Script = logScript) {
  const fake = await startFakeOpenAI(script);
  onTestFinished(fake.close);
  return { fake, provider: createOpenAI({ baseURL: fake.url, apiKey: "test-key" }) };
}

/** generateText as the README sets it up: read_log wrapped by `refs`, its prepareStep, `steps` steps at most. */
function generateWrapped(provider: ReturnType<typeof createOpenAI>, refs: AiSdkRefs, prompt: string, steps = 5) {
  return generateText({
    model: provider.chat("m"),
    tools: refs.wrapTools({ read_log: readLog }),
    prepareStep: refs.prepareStep,
    stopWhen: stepCountIs(steps),
    prompt,
  });
}

describe("AI SDK adapter with the real `ai` + @ai-sdk/openai against a local server", () => {
  it("wrapTools: the 100 KB result is stashed inside execute; requests carry the ref, never the payload", async () => {
    const { fake, provider } = await fakeProvider();
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createAiSdkRefs({ store, session: "t1" });
    const result = await generateWrapped(provider, refs, "which tests failed?");
    expect(result.text).toBe("found 4 failures");
    // Wrapped and prepareStep together: stored once, and the reference itself is never stashed again.
    expect(await store.listReferences("t1")).toHaveLength(1);
    const id = (await store.listReferences("t1"))[0]!.artifact_id;
    checkRequests(fake, await store.shortRef(id, { session: "t1" }));
    expect((fake.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(
      ["read_log", "artifacts_get"],
    );
    expect(await store.getText(id)).toBe(LOG);
  });

  it("prepareStep: unwrapped tools' large results are stashed before each step, once", async () => {
    const { fake, provider } = await fakeProvider();
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const handled: ExternalizedResult[] = [];
    const refs = createAiSdkRefs({ store, session: "t2", onResult: (r) => handled.push(r) });
    const result = await generateText({
      model: provider.chat("m"),
      tools: { read_log: readLog, artifacts_get: refs.tool },
      prepareStep: refs.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "which tests failed?",
    });
    expect(result.text).toBe("found 4 failures");
    const id = (await store.listReferences("t2"))[0]!.artifact_id;
    checkRequests(fake, await store.shortRef(id, { session: "t2" }));
    expect(handled.map((h) => h.action)).toEqual(["stashed"]);
    expect(await store.listReferences("t2")).toHaveLength(1);
    expect(refs.lastStep).toMatchObject({ stepNumber: 2, externalized: 0 });
    expect(refs.lastStep!.tokens).toBeLessThan(refs.maxPromptTokens);
  });

  it("middleware: a wrapped model stashes large tool results in every call's prompt", async () => {
    const { fake, provider } = await fakeProvider();
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createAiSdkRefs({ store, session: "t5" });
    const model = wrapLanguageModel({ model: provider.chat("m"), middleware: refs.middleware });
    const result = await generateText({
      model,
      tools: { read_log: readLog, artifacts_get: refs.tool },
      stopWhen: stepCountIs(5),
      prompt: "which tests failed?",
    });
    expect(result.text).toBe("found 4 failures");
    const id = (await store.listReferences("t5"))[0]!.artifact_id;
    checkRequests(fake, await store.shortRef(id, { session: "t5" }));
    expect(refs.lastStep).toMatchObject({ stepNumber: undefined, externalized: 0 });
  });

  it("prepareStep fails closed when a step is over the token budget", async () => {
    const { fake, provider } = await fakeProvider();
    const refs = createAiSdkRefs({
      store: new ArtifactStore({ driver: new MemoryDriver() }),
      session: "t3",
      maxPromptTokens: 20,
    });
    await expect(generateWrapped(provider, refs, "which tests failed? ".repeat(20))).rejects.toMatchObject({
      code: "BUDGET_EXCEEDED",
      message: expect.stringMatching(/over maxPromptTokens 20 .*largest: (task|user message|request and last turns)/),
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("a 200-turn chat with large tool outputs stays inside the default budget through prepareStep and the middleware", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createAiSdkRefs({ store, session: "long" });
    const mw = createAiSdkRefs({ store, session: "long-mw" });
    const messages: ModelMessage[] = [
      { role: "system", content: "You are a careful agent." },
      { role: "user", content: "Find every failing test in the logs." },
    ];
    for (let turn = 1; turn <= 200; turn++) {
      const id = `call_${turn}`;
      messages.push({
        role: "assistant",
        content: [
          { type: "text", text: `step ${turn}` },
          { type: "tool-call", toolCallId: id, toolName: "read_log", input: { part: turn } },
        ],
      });
      messages.push({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: id,
            toolName: "read_log",
            output: { type: "text", value: `${turn}\n${LOG}`.slice(0, 20_000) },
          },
        ],
      });
      if (turn % 50 === 0) messages.push({ role: "user", content: `Now also look for ${"timeouts ".repeat(3_000)}` });
      const step = await refs.prepareStep({ messages, stepNumber: turn });
      expect(refs.lastStep!.tokens).toBeLessThanOrEqual(8_000);
      expect(step.messages.length).toBeGreaterThan(1);
      const params = await mw.middleware.transformParams!({
        params: { prompt: messages as never },
        type: "generate",
        model: {} as never,
      });
      expect(mw.lastStep!.tokens).toBeLessThanOrEqual(8_000);
      expect((params.prompt as unknown[]).length).toBeGreaterThan(1);
    }
  }, 120_000);

  it("a bad artifacts_get call is a tool error: the model reads it as error-text, CODE: message", async () => {
    const { fake, provider } = await fakeProvider((_raw, index) =>
      index === 0 ? { tool: "artifacts_get", args: { ref: `art:${"0".repeat(12)}` } } : { text: "no such artifact" },
    );
    const refs = createAiSdkRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "t5" });
    const result = await generateWrapped(provider, refs, "read art:000000000000", 3);
    expect(result.text).toBe("no such artifact");
    const failed = result.steps[0]!.content.find((p) => p.type === "tool-error");
    expect(failed).toMatchObject({ toolName: "artifacts_get", error: { code: "NOT_FOUND" } });
    const toolMessage = result.response.messages.find((m) => m.role === "tool")!;
    expect(toolMessage.content).toEqual([
      expect.objectContaining({
        type: "tool-result",
        toolName: "artifacts_get",
        output: { type: "error-text", value: expect.stringMatching(/^NOT_FOUND: .*\nhint: .*artifacts_(list|get)/s) },
      }),
    ]);
    // OpenAI's wire format has no error field: the provider sends the text, which says it.
    const sent = (fake.requests[1]!.body.messages as Array<{ role: string; content: string }>).at(-1)!;
    expect(sent).toMatchObject({ role: "tool", content: expect.stringMatching(/^NOT_FOUND: /) });
  });

  it("an error-text tool result stays error-text through prepareStep and the middleware; others are text", async () => {
    const refs = createAiSdkRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "t6" });
    const history: ModelMessage[] = [
      { role: "user", content: "read two artifacts" },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "artifacts_get", input: { ref: "art:000000000000" } },
          { type: "tool-call", toolCallId: "c2", toolName: "read_log", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "artifacts_get",
            output: { type: "error-text", value: "NOT_FOUND: no artifact" },
          },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c2", toolName: "read_log", output: { type: "text", value: "ok" } },
        ],
      },
    ];
    const outputs = (messages: ReadonlyArray<{ role: string; content: unknown }>) =>
      messages
        .filter((m) => m.role === "tool")
        .flatMap((m) => m.content as Array<{ toolCallId: string; output: unknown }>)
        .map((p) => [p.toolCallId, p.output]);
    const expected = [
      ["c1", { type: "error-text", value: "NOT_FOUND: no artifact" }],
      ["c2", { type: "text", value: "ok" }],
    ];
    expect(outputs((await refs.prepareStep({ messages: history })).messages)).toEqual(expected);
    const params = await refs.middleware.transformParams!({
      type: "generate",
      params: { prompt: history as never },
      model: {} as never,
    });
    expect(outputs(params.prompt as Array<{ role: string; content: unknown }>)).toEqual(expected);
  });

  it("artifacts_get errors are tool errors; bad options are clear errors", async () => {
    const refs = createAiSdkRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "t4" });
    await expect(refs.tool.execute!({ ref: "art:bogus" }, { toolCallId: "c1", messages: [] })).rejects.toThrow(
      expect.objectContaining({ code: "INVALID_HANDLE", message: expect.stringMatching(/^INVALID_HANDLE: /) }),
    );
    expect(() => refs.wrapTools({ artifacts_get: readLog })).toThrow(/already in the set/);
    expect(() =>
      createAiSdkRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "t", maxPromptTokens: 0 }),
    ).toThrow(/maxPromptTokens must be a positive whole number/);
    expect(() => createAiSdkRefs({ session: "t" } as never)).toThrow(/needs \{ store, session \}/);
    // A malformed message list is INVALID_INPUT naming the message, not a TypeError inside the adapter.
    for (const [step, what] of [
      [undefined, /messages must be an array, got undefined/],
      [{ messages: null }, /messages must be an array, got null/],
      [{ messages: [{ role: "bogus", content: "x" }] }, /message 0 has no role of system, user, assistant, tool/],
      [
        {
          messages: [
            { role: "user", content: "a" },
            { role: "tool", content: 7 },
          ],
        },
        /message 1 \(tool\): content/,
      ],
    ] as const)
      await expect(refs.prepareStep(step as never)).rejects.toMatchObject({
        code: "INVALID_INPUT",
        message: expect.stringMatching(what),
      });
    const small = await refs.wrapTools({
      add: tool({ inputSchema: jsonSchema<{ a: number }>({ type: "object" }), execute: async () => ({ sum: 3 }) }),
    }).add.execute!({ a: 1 }, { toolCallId: "c2", messages: [] });
    expect(JSON.parse(small as unknown as string)).toEqual({ sum: 3 });
  });

  it("examples/generate-text.ts runs as written against the local server", async () => {
    const fake = await startFakeOpenAI(logScript);
    onTestFinished(fake.close);
    const stdout = await runExampleWithEnv(new URL("../examples/generate-text.ts", import.meta.url), {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: "test-key",
    });
    expectScriptedLogRun(stdout, fake.requests);
  });
});
