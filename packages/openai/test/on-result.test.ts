import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createOpenAIRefs } from "../src/index.js";

describe("OpenAIRefs onResult", () => {
  it("hears of each handled output (Chat and Responses) with the call in OpenAI terms, never of artifacts_get", async () => {
    const heard: unknown[] = [];
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createOpenAIRefs({
      store,
      session: "t1",
      onResult: (result, call) =>
        heard.push({ call, content: result.content, stored: result.artifactRef !== undefined }),
    });
    const chat = await refs.toolMessage({ id: "c1", function: { name: "add", arguments: '{"a":1}' } }, { sum: 3 });
    const responses = await refs.functionCallOutput({ call_id: "c2", name: "read_log", arguments: "not json" }, () =>
      "line\n".repeat(20_000),
    );
    await refs.handleToolCall({ id: "c3", function: { name: "artifacts_get", arguments: '{"ref":"art:nothex"}' } });
    expect(heard).toEqual([
      { call: { name: "add", callId: "c1" }, content: chat.content, stored: false },
      { call: { name: "read_log", callId: "c2" }, content: responses.output, stored: true },
    ]);
  });
});
