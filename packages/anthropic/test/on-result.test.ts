import type { ExternalizedResult } from "@artifact-refs/context";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createAnthropicRefs } from "../src/index.js";

describe("AnthropicRefs onResult", () => {
  it("hears of every handled tool_use with the call in Anthropic terms; only bad artifacts_get answers are errors", async () => {
    const calls: Array<{ name: string; id: string }> = [];
    const results: ExternalizedResult[] = [];
    const refs = createAnthropicRefs({
      store: new ArtifactStore({ driver: new MemoryDriver() }),
      session: "t1",
      onResult: (result, call) => {
        calls.push(call);
        results.push(result);
      },
    });
    const blocks = [
      await refs.toolResultBlock({ id: "u1", name: "add", input: { a: 1 } }, { sum: 3 }),
      await refs.toolResultBlock({ id: "u2", name: "read_log", input: "not an object" }, () => "line\n".repeat(20_000)),
      await refs.toolResultBlock({ id: "u3", name: "artifacts_get", input: { ref: "art:nothex" } }),
    ];
    expect(calls).toEqual([
      { name: "add", id: "u1" },
      { name: "read_log", id: "u2" },
    ]);
    expect(results.map((r) => r.content)).toEqual([blocks[0]!.content, blocks[1]!.content]);
    expect(results[1]!.artifactRef).toBeDefined();
    expect(blocks.map((b) => b.is_error)).toEqual([undefined, undefined, true]);
  });
});
