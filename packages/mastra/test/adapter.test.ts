import { createOpenAI } from "@ai-sdk/openai";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it, onTestFinished } from "vitest";
import { z } from "zod";
import {
  startFakeStreamingOpenAI,
  turnLog as log120k,
  turnLogMiddle,
  type Move,
} from "@artifact-refs/tooling/testing/fake-openai";
import { createMastraRefs } from "../src/index.js";

/** ~120 KB tool output (tooling/testing's turnLog); its middle line must never reach a request. */
const MIDDLE = turnLogMiddle();

describe("@artifact-refs/mastra with a real Mastra Agent against a local streaming Chat Completions server", () => {
  it("a tool returning 120 KB never puts the payload in a request body; artifacts_get returns a bounded slice", async () => {
    const script = (raw: string, n: number): Move => {
      if (n === 0) return { tool: "read_log", args: { path: "test.log" } };
      const ref = /art:[0-9a-f]{12,64}/.exec(raw)?.[0];
      if (n === 1 && ref)
        return { tool: "artifacts_get", args: { ref, selector: { mode: "range", start: 1, end: 2400 } } };
      return { text: "done" };
    };
    const fake = await startFakeStreamingOpenAI(script);
    onTestFinished(fake.close);
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createMastraRefs({ store, session: "mastra-1" });
    const readLog = createTool({
      id: "read_log",
      description: "Read the test log",
      inputSchema: z.object({ path: z.string() }),
      execute: async () => log120k(),
    });
    const agent = new Agent({
      name: "t",
      instructions: "Answer.",
      model: createOpenAI({ baseURL: fake.url, apiKey: "k" }).chat("m"),
      tools: refs.withArtifacts({ read_log: readLog }),
    });
    const result = await agent.generate("what failed?", { maxSteps: 5 });
    expect(result.text).toBe("done");
    expect(fake.requests).toHaveLength(3);
    for (const r of fake.requests) {
      expect(r.raw).not.toContain(MIDDLE);
      expect(r.raw.length).toBeLessThan(16_000);
    }
    expect(JSON.stringify(fake.requests[0]!.body.tools)).not.toMatch(/9007199254740991/);
    const tools = (fake.requests[2]!.body.messages as Array<{ role: string; content: string }>).filter(
      (m) => m.role === "tool",
    );
    expect(tools[0]!.content).toMatch(/stored as art:[0-9a-f]{12,}/);
    // The slice the model got is bounded, and starts with the log's first line.
    expect(tools[1]!.content.length).toBeLessThanOrEqual(8000 + 800);
    expect(tools[1]!.content).toMatch(/ok 1 test\/case-1\.test\.ts/);
    expect(tools[1]!.content).toMatch(/next part: call artifacts_get with/);
    expect(await store.getText((await store.listReferences("mastra-1"))[0]!.artifact_id)).toBe(log120k());
  });

  it("artifacts_get follows `next` through a line longer than the cap (the offset is kept)", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createMastraRefs({ store, session: "m-long" });
    const line = Array.from({ length: 3000 }, (_, i) => `field${i}=${i * 7}`).join(";");
    const put = await store.put(line, { session: "m-long" });
    const execute = (refs.artifactsGetTool as unknown as { execute: (c: unknown) => Promise<string> }).execute;
    let selector: Record<string, unknown> | undefined = { mode: "range", start: 1 };
    let text = "";
    for (let pages = 0; selector !== undefined && pages < 50; pages++) {
      const answer = await execute({ context: { ref: put.shortRef, selector } });
      const note = [...answer.matchAll(/\[artifacts_get: (\d+) chars of /g)].at(-1)!;
      text += answer.slice(0, Number(note[1]));
      const next = /^next part: call artifacts_get with (\{.*\})$/m.exec(answer.slice(note.index));
      selector = next ? (JSON.parse(next[1]!) as { selector: Record<string, unknown> }).selector : undefined;
    }
    expect(text).toBe(line);
  });

  it("a bad artifacts_get call is Mastra's tool error result { error: true, message }, as its own validation failures", async () => {
    const moves: Move[] = [
      { tool: "artifacts_get", args: { ref: "art:000000000000" } },
      { tool: "artifacts_get", args: { ref: "art:000000000000", selector: { mode: "sideways" } } },
      { text: "done" },
    ];
    const fake = await startFakeStreamingOpenAI((_raw: string, n: number) => moves[n] ?? { text: "done" });
    onTestFinished(fake.close);
    const refs = createMastraRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "m-err" });
    const agent = new Agent({
      name: "t",
      instructions: "Answer.",
      model: createOpenAI({ baseURL: fake.url, apiKey: "k" }).chat("m"),
      tools: refs.withArtifacts({}),
    });
    const result = await agent.generate("what failed?", { maxSteps: 5 });
    expect(result.text).toBe("done");
    const results = result.steps.flatMap((s) =>
      s.content.filter((p) => p.type === "tool-result").map((p) => (p.output as { value: unknown }).value),
    );
    expect(results).toEqual([
      {
        error: true,
        code: "NOT_FOUND",
        message: expect.stringMatching(/^NOT_FOUND: no artifact .*\nhint: call artifacts_list/),
      },
      expect.objectContaining({
        error: true,
        message: expect.stringMatching(/^Tool validation failed for artifacts_get/),
      }),
    ]);
    // The model reads the error result as the tool message.
    const sent = (fake.requests[1]!.body.messages as Array<{ role: string; content: string }>).at(-1)!;
    expect(sent.role).toBe("tool");
    expect(JSON.parse(sent.content)).toEqual(results[0]);
  });

  it("bad input: clear errors; artifacts_get errors name a tool", async () => {
    const refs = createMastraRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "m-bad" });
    expect(() => refs.wrapTool({} as never)).toThrow(/wrapTool takes a Mastra tool/);
    expect(() => createMastraRefs(undefined as never)).toThrow(/createMastraRefs needs \{ store, session \}/);
    expect(() =>
      createMastraRefs({ store: new ArtifactStore({ driver: new MemoryDriver() }), session: "a b" }),
    ).toThrow(/invalid session id "a b"/);
    const answer = await (refs.artifactsGetTool as unknown as { execute: (c: unknown) => Promise<unknown> }).execute({
      context: { ref: "art:000000000000" },
    });
    expect(answer).toMatchObject({
      error: true,
      code: "NOT_FOUND",
      message: expect.stringMatching(/^NOT_FOUND: .*\nhint: call artifacts_list/),
    });
  });
});
