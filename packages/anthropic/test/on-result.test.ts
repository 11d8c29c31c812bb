import type { ExternalizedResult } from "@artifact-refs/context";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createAnthropicRefs } from "../src/index.js";

describe("AnthropicRefs onResult", () => {
  it("hears of every handled output with the call in Anthropic terms, never of artifacts_get", async () => {
    const heard: Array<{ result: ExternalizedResult; call: unknown }> = [];
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createAnthropicRefs({ store, session: "t1", onResult: (result, call) => heard.push({ result, call }) });
    const small = await refs.toolResultBlock({ id: "u1", name: "add", input: { a: 1 } }, { sum: 3 });
    const big = await refs.toolResultBlock({ id: "u2", name: "read_log", input: "not an object" }, () => "line\n".repeat(20_000));
    const bad = await refs.handleToolUse({ id: "u3", name: "artifacts_get", input: { ref: "art:nothex" } });
    expect(heard.map((h) => h.call)).toEqual([
      { name: "add", id: "u1" },
      { name: "read_log", id: "u2" },
    ]);
    expect(heard[0]!.result.content).toBe(small.content);
    expect(heard[1]!.result.content).toBe(big.content);
    expect(heard[1]!.result.artifactRef).toBeDefined();
    expect(small.is_error).toBeUndefined();
    expect(big.is_error).toBeUndefined();
    expect(bad!.is_error).toBe(true);
  });
});
