import { type AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import { startFakeOpenAI, turnLog, turnLogMiddle, type Move } from "@artifact-refs/tooling/testing/fake-openai";
import { createLangChainRefs, type LangChainRefs } from "../src/index.js";

/** ~120 KB tool output, different for each turn; its middle line must never reach a request. */
const MIDDLE = turnLogMiddle;
const log120k = turnLog;
const lastRole = (raw: string) => (JSON.parse(raw) as { messages: Array<{ role: string }> }).messages.at(-1)!.role;

/** The graph of the README: agent → tools → stash → agent; `wrap` also wraps read_log itself. */
function build(baseURL: string, refs: LangChainRefs, turn: () => number, budget: number, wrap: boolean) {
  const readLog = tool(async () => log120k(turn()), {
    name: "read_log",
    description: "Read the test log",
    schema: z.object({ path: z.string() }),
  });
  const tools: StructuredToolInterface[] = [
    wrap
      ? refs.wrapTool(readLog as unknown as StructuredToolInterface)
      : (readLog as unknown as StructuredToolInterface),
    refs.artifactsGetTool,
  ];
  const model = new ChatOpenAI({ model: "m", apiKey: "k", maxRetries: 0, configuration: { baseURL } }).bindTools(tools);
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({
      messages: [await model.invoke(refs.fitMessages(state.messages, { maxInputChars: budget }))],
    }))
    .addNode("tools", new ToolNode(tools))
    .addNode("stash", refs.stashToolMessages())
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "stash")
    .addEdge("stash", "agent")
    .compile();
}

describe("@artifact-refs/langchain with @langchain/core, LangGraph and ChatOpenAI against a local Chat Completions server", () => {
  for (const wrap of [false, true]) {
    it(`a tool returning 120 KB never puts the payload in a request body (${wrap ? "wrapTool" : "stash node"}); artifacts_get returns a bounded slice`, async () => {
      const script = (raw: string, n: number): Move => {
        if (n === 0) return { tool: "read_log", args: { path: "test.log" } };
        const ref = /art:[0-9a-f]{12,64}/.exec(raw)?.[0];
        if (n === 1 && ref)
          return { tool: "artifacts_get", args: { ref, selector: { mode: "range", start: 1, end: 2400 } } };
        return { text: "done" };
      };
      const fake = await startFakeOpenAI(script);
      onTestFinished(fake.close);
      const store = new ArtifactStore({ driver: new MemoryDriver() });
      const refs = createLangChainRefs({ store, session: "lc-1" });
      const graph = build(fake.url, refs, () => 0, 48_000, wrap);
      const { messages } = await graph.invoke({ messages: [new HumanMessage("what failed?")] });
      expect((messages.at(-1) as AIMessage).content).toBe("done");
      expect(fake.requests).toHaveLength(3);
      for (const r of fake.requests) {
        expect(r.raw).not.toContain(MIDDLE(0));
        expect(r.raw.length).toBeLessThan(16_000);
      }
      const toolMessages = (fake.requests[2]!.body.messages as Array<{ role: string; content: string }>).filter(
        (m) => m.role === "tool",
      );
      expect(toolMessages[0]!.content).toMatch(/^\[stored as art:[0-9a-f]{12,}/);
      const slice = toolMessages[1]!.content;
      expect(slice.length).toBeLessThanOrEqual(8000 + 600);
      expect(slice).toMatch(/^ok 1 turn 0 test\/case-1\.test\.ts/);
      expect(slice).toMatch(/\nnext part: call artifacts_get with \{"ref":"art:/);
      // The state itself holds the ref too (the stash node replaced the ToolMessage by id).
      expect(
        messages
          .filter((m: BaseMessage) => ToolMessage.isInstance(m))
          .every((m: BaseMessage) => String(m.content).length < 9000),
      ).toBe(true);
      expect(await store.getText((await store.listReferences("lc-1"))[0]!.artifact_id)).toBe(log120k(0));
    });
  }

  it("200 turns of one conversation stay inside the input budget, every request", async () => {
    const fake = await startFakeOpenAI(
      (raw): Move =>
        lastRole(raw) === "user" ? { tool: "read_log", args: { path: "test.log" } } : { text: "read it" },
    );
    onTestFinished(fake.close);
    const refs = createLangChainRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "lc-200" });
    let turn = 0;
    const budget = 20_000;
    const graph = build(fake.url, refs, () => turn, budget, false);
    let messages: BaseMessage[] = [];
    for (turn = 0; turn < 200; turn++) {
      ({ messages } = await graph.invoke({ messages: [...messages, new HumanMessage(`turn ${turn}: what failed?`)] }));
    }
    expect(fake.requests).toHaveLength(400);
    const unfiltered = messages.reduce((n, m) => n + String(m.content).length, 0);
    expect(unfiltered).toBeGreaterThan(budget * 5);
    for (const [i, r] of fake.requests.entries()) {
      expect(r.raw, `request ${i}`).not.toMatch(/ok 1200 turn \d+ test/);
      expect(JSON.stringify(r.body.messages).length, `request ${i}`).toBeLessThanOrEqual(budget * 1.2);
    }
    expect(fake.requests.at(-1)!.raw).toMatch(/stored as art:[0-9a-f]{12,}/);
  }, 240_000);

  it("a bad artifacts_get call is a ToolMessage with status error (through ToolNode); a good one is success", async () => {
    const script = (raw: string, n: number): Move => {
      if (n === 0) return { tool: "artifacts_get", args: { ref: "art:000000000000" } };
      const ref = /art:[0-9a-f]{12,64}/.exec(raw.replaceAll("art:000000000000", ""))?.[0];
      if (n === 1) return { tool: "read_log", args: { path: "test.log" } };
      if (n === 2 && ref)
        return { tool: "artifacts_get", args: { ref, selector: { mode: "range", start: 1, end: 3 } } };
      return { text: "done" };
    };
    const fake = await startFakeOpenAI(script);
    onTestFinished(fake.close);
    const refs = createLangChainRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "lc-err" });
    const { messages } = await build(fake.url, refs, () => 0, 48_000, true).invoke({
      messages: [new HumanMessage("what failed?")],
    });
    const answers = messages.filter((m: BaseMessage) => ToolMessage.isInstance(m)) as ToolMessage[];
    expect(answers.map((m) => [m.name, m.status])).toEqual([
      ["artifacts_get", "error"],
      ["read_log", "success"],
      ["artifacts_get", "success"],
    ]);
    // The model reads the same `CODE: message` and hint, not LangChain's generic wrapper.
    expect(answers[0]!.content).toMatch(/^NOT_FOUND: .*\nhint: call artifacts_list/);
    expect(answers[0]!.tool_call_id).toBe("call_1");
    const sent = (fake.requests[1]!.body.messages as Array<{ role: string; content: string }>).at(-1)!;
    expect(sent).toMatchObject({ role: "tool", content: answers[0]!.content });
  });

  it("artifacts_get outside a tool call throws ArefError; fitMessages and the stash node keep an error status", async () => {
    const refs = createLangChainRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "lc-err2" });
    await expect(refs.artifactsGetTool.invoke({ ref: "art:000000000000" })).rejects.toMatchObject({
      name: "ArefError",
      code: "NOT_FOUND",
      message: expect.stringMatching(/^NOT_FOUND: .*\nhint: call artifacts_list/),
    });
    const direct = (await refs.artifactsGetTool.invoke({
      type: "tool_call",
      id: "c9",
      name: "artifacts_get",
      args: { ref: "nope" },
    })) as ToolMessage;
    expect(ToolMessage.isInstance(direct)).toBe(true);
    expect(direct).toMatchObject({ status: "error", tool_call_id: "c9", name: "artifacts_get" });
    expect(direct.content).toMatch(/^INVALID_HANDLE: /);
    const failed = new ToolMessage({
      id: "m1",
      name: "read_log",
      tool_call_id: "c1",
      status: "error",
      content: `failed: ${"x".repeat(30_000)}`,
    });
    const [stashed] = (await refs.stashToolMessages()({ messages: [failed] })).messages as ToolMessage[];
    expect(stashed!.content).toMatch(/^\[stored as art:/);
    expect(stashed!.status).toBe("error");
    const latest = new ToolMessage({ name: "read_log", tool_call_id: "c2", content: "ok" });
    const fitted = refs.fitMessages([new HumanMessage("a"), failed, new HumanMessage("b"), latest], {
      maxInputChars: 2_000,
    });
    expect(fitted[1]).toMatchObject({ tool_call_id: "c1", status: "error" });
    expect(String(fitted[1]!.content).length).toBeLessThan(1_000);
  });

  it("bad input: clear errors, fail closed over the budget, artifacts_get errors name a tool", async () => {
    const refs = createLangChainRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "lc-bad" });
    expect(() => refs.fitMessages([new HumanMessage("x".repeat(500))], { maxInputChars: 100 })).toThrow(
      /over the budget of 100/,
    );
    expect(() => refs.wrapTool({} as never)).toThrow(/wrapTool takes a @langchain\/core tool/);
    expect(() => createLangChainRefs(undefined as never)).toThrow(/createLangChainRefs needs \{ store, session \}/);
    expect(() =>
      createLangChainRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "a b" }),
    ).toThrow(/invalid session id "a b"/);
    // A budget that is not a positive whole number is refused, not read as "no budget" (NaN compares false).
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "48000"])
      expect(() => refs.fitMessages([new HumanMessage("x".repeat(500))], { maxInputChars: bad as never })).toThrow(
        expect.objectContaining({
          code: "INVALID_INPUT",
          message: expect.stringMatching(/^maxInputChars must be a positive integer/),
        }),
      );
  });
});
