import {
  Agent,
  OpenAIResponsesModel,
  run,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  type AgentInputItem,
  type Span,
  type TracingProcessor,
} from "@openai/agents";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import OpenAI from "openai";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import { startFakeOpenAI, turnLog, turnLogMiddle, type Move } from "@artifact-refs/tooling/testing/fake-openai";
import { createAgentsRefs } from "../src/index.js";

/** ~120 KB tool output, different for each turn; its middle line must never reach a request. */
const MIDDLE = turnLogMiddle;
const log120k = turnLog;

const lastInput = (raw: string) =>
  (JSON.parse(raw) as { input: Array<{ type?: string; role?: string }> }).input.at(-1)!;

/** A fresh store, adapter and agent whose model talks to `baseURL` (the SDK caches default clients per model name). */
function setup(baseURL = "http://127.0.0.1:9/v1") {
  const model = new OpenAIResponsesModel(new OpenAI({ baseURL, apiKey: "k", maxRetries: 0 }), "m");
  const store = new ArtifactStore({ driver: new MemoryDriver() });
  const refs = createAgentsRefs({ store, session: "agents-1" });
  let turn = 0;
  const readLog = tool({
    name: "read_log",
    description: "Read the test log",
    parameters: z.object({ path: z.string() }),
    execute: async () => log120k(turn),
  });
  const agent = refs.withArtifacts(
    new Agent({ name: "tester", instructions: "Answer from the test log.", model, tools: [readLog] }),
  );
  return { store, refs, agent, setTurn: (n: number) => (turn = n) };
}

beforeAll(() => setTracingDisabled(true));

describe("@artifact-refs/openai-agents with the real Agents SDK against a local Responses server", () => {
  it("a tool returning 120 KB never puts the payload in a request body; artifacts_get returns a bounded slice", async () => {
    const script = (raw: string, n: number): Move => {
      if (n === 0) return { tool: "read_log", args: { path: "test.log" } };
      const ref = /art:[0-9a-f]{12,64}/.exec(raw)?.[0];
      if (n === 1 && ref)
        return { tool: "artifacts_get", args: { ref, selector: { mode: "range", start: 1, end: 2400 } } };
      return { text: "done" };
    };
    const fake = await startFakeOpenAI(script);
    onTestFinished(fake.close);
    const { agent, refs, store } = setup(fake.url);
    const result = await run(agent, "what failed?", { callModelInputFilter: refs.inputFilter() });
    expect(result.finalOutput).toBe("done");
    expect(fake.requests).toHaveLength(3);
    for (const r of fake.requests) {
      expect(r.raw).not.toContain(MIDDLE(0));
      expect(r.raw.length).toBeLessThan(16_000);
    }
    expect((fake.requests[0]!.body.tools as Array<{ name: string }>).map((t) => t.name)).toEqual([
      "read_log",
      "artifacts_get",
    ]);
    // The model read a plain-text reference (not JSON in a string) and got a bounded slice.
    const outputs = (fake.requests[2]!.body.input as Array<{ type?: string; output?: string }>).filter(
      (i) => i.type === "function_call_output",
    );
    expect(outputs[0]!.output).toMatch(/^\[stored as art:[0-9a-f]{12,} \(|^\[stored as art:[0-9a-f]{12,}: /);
    expect(outputs[0]!.output).toMatch(/call artifacts_get with \{"ref":"art:/);
    const slice = outputs[1]!.output!;
    expect(slice.length).toBeLessThanOrEqual(8000 + 600);
    expect(slice).toMatch(/^ok 1 turn 0 test\/case-1\.test\.ts/);
    expect(slice).toMatch(
      /\[artifacts_get: \d+ chars of art:.*more is left\]\nleft out: .*\nnext part: call artifacts_get with/,
    );
    const stored = await store.listReferences("agents-1");
    expect(await store.getText(stored[0]!.artifact_id)).toBe(log120k(0));
  });

  it("200 turns of one conversation stay inside the input budget, every request", async () => {
    const script = (raw: string): Move =>
      lastInput(raw).role === "user" ? { tool: "read_log", args: { path: "test.log" } } : { text: "read it" };
    const fake = await startFakeOpenAI(script);
    onTestFinished(fake.close);
    const { agent, refs, setTurn } = setup(fake.url);
    const budget = 20_000;
    let history: AgentInputItem[] = [];
    let unfiltered = 0;
    for (let turn = 0; turn < 200; turn++) {
      setTurn(turn);
      const result = await run(agent, [...history, { role: "user", content: `turn ${turn}: what failed?` }], {
        callModelInputFilter: refs.inputFilter({ maxInputChars: budget }),
      });
      history = result.history;
      unfiltered = JSON.stringify(history).length;
    }
    expect(fake.requests).toHaveLength(400);
    expect(unfiltered).toBeGreaterThan(budget * 5); // without the filter the input would be far over
    const sizes = fake.requests.map((r) => JSON.stringify((r.body as { input: unknown }).input).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);
    for (const [i, r] of fake.requests.entries()) expect(r.raw, `request ${i}`).not.toMatch(/ok 1200 turn \d+ test/);
    // The latest turn is always whole: its stored ref reaches the model.
    expect(fake.requests.at(-1)!.raw).toMatch(/stored as art:[0-9a-f]{12,}/);
  }, 240_000);

  it("a bad artifacts_get call is an SDK tool error: the span records it, the model reads CODE: message", async () => {
    const ended: Span<any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    const recorder: TracingProcessor = {
      onTraceStart: async () => {},
      onTraceEnd: async () => {},
      onSpanStart: async () => {},
      onSpanEnd: async (span) => void ended.push(span),
      shutdown: async () => {},
      forceFlush: async () => {},
    };
    setTraceProcessors([recorder]); // only this recorder: nothing is exported
    setTracingDisabled(false);
    onTestFinished(() => {
      setTracingDisabled(true);
      setTraceProcessors([]);
    });
    const moves: Move[] = [
      { tool: "read_log", args: { path: "test.log" } },
      { tool: "artifacts_get", args: { ref: "art:000000000000" } },
      { text: "done" },
    ];
    const fake = await startFakeOpenAI((_raw: string, n: number) => moves[n] ?? { text: "done" });
    onTestFinished(fake.close);
    const { agent } = setup(fake.url);
    const result = await run(agent, "what failed?");
    expect(result.finalOutput).toBe("done");
    const fnSpans = ended
      .map((s) => ({ data: s.spanData as { type: string; name?: string }, error: s.error }))
      .filter((s) => s.data.type === "function");
    expect(fnSpans.map((s) => [s.data.name, s.error?.message ?? null])).toEqual([
      ["read_log", null],
      ["artifacts_get", "Error running tool (non-fatal)"],
    ]);
    // The model reads our `CODE: message` and hint, not the SDK's generic message.
    const outputs = (fake.requests[2]!.body.input as Array<{ type?: string; output?: string }>).filter(
      (i) => i.type === "function_call_output",
    );
    expect(outputs[1]!.output).toMatch(/^NOT_FOUND: no artifact .*\nhint: call artifacts_list/);
  });

  it("fails closed when the latest turn alone is over the budget; bad input gets clear errors", async () => {
    const { refs } = setup();
    const filter = refs.inputFilter({ maxInputChars: 50 });
    expect(() =>
      filter({ modelData: { input: [{ role: "user", content: "x".repeat(100) }], instructions: "" } } as never),
    ).toThrow(/BUDGET_EXCEEDED|over the budget of 50/);
    expect(() => refs.wrapTool({ type: "hosted" } as never)).toThrow(/wrapTool takes a function tool/);
    expect(() => createAgentsRefs(undefined as never)).toThrow(/createAgentsRefs needs \{ store, session \}/);
    expect(() =>
      createAgentsRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "a b" }),
    ).toThrow(/invalid session id "a b"/);
    // A budget that is not a positive whole number is refused when the filter is made, not read as "no budget".
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "48000"])
      expect(() => refs.inputFilter({ maxInputChars: bad as never })).toThrow(
        expect.objectContaining({
          code: "INVALID_INPUT",
          message: expect.stringMatching(/^maxInputChars must be a positive integer/),
        }),
      );
    // Bad artifacts_get arguments (not an object, no ref, a bad selector) answer CODE: message, never throw.
    for (const [args, code] of [
      ["[1]", "INVALID_INPUT"],
      ["{}", "INVALID_INPUT"],
      [JSON.stringify({ ref: "art:000000000000", selector: { mode: "nope" } }), "INVALID_SELECTOR"],
    ] as const)
      expect(await refs.artifactsGetTool.invoke({} as never, args)).toMatch(new RegExp(`^${code}: .*\\nhint: `, "s"));
    const bad = await refs.artifactsGetTool.invoke({} as never, JSON.stringify({ ref: "art:000000000000" }));
    expect(bad).toMatch(/^NOT_FOUND: .*\nhint: call artifacts_list/);
  });
});
