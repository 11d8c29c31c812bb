import type { ExternalizedResult } from "@artifact-refs/context";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createOpenAIRefs } from "../src/index.js";

describe("OpenAIRefs onResult", () => {
  it("hears of every handled output with the call in OpenAI terms, never of artifacts_get", async () => {
    const heard: Array<{ result: ExternalizedResult; call: unknown }> = [];
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createOpenAIRefs({ store, session: "t1", onResult: (result, call) => heard.push({ result, call }) });
    const small = await refs.toolMessage({ id: "c1", function: { name: "add", arguments: '{"a":1}' } }, { sum: 3 });
    const big = await refs.functionCallOutput({ call_id: "c2", name: "read_log", arguments: "not json" }, () => "line\n".repeat(20_000));
    await refs.handleToolCall({ id: "c3", function: { name: "artifacts_get", arguments: '{"ref":"art:nothex"}' } });
    expect(heard.map((h) => h.call)).toEqual([
      { name: "add", callId: "c1" },
      { name: "read_log", callId: "c2" },
    ]);
    expect(heard[0]!.result.content).toBe(small.content);
    expect(heard[1]!.result.content).toBe(big.output);
    expect(heard[1]!.result.artifactRef).toBeDefined();
    expect(await store.listReferences("t1")).toHaveLength(1);
  });
});
