// A 5 MB tool result (about 10x the one-blob size) through the Anthropic adapter: stored whole (chunked
// by the store), the model gets a short reference, and artifacts_get tool uses page through all of it.
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { bigToolLog, expectStoredWholeAndPaged } from "@artifact-refs/tooling/testing/paging";
import { describe, expect, it } from "vitest";
import { createAnthropicRefs } from "../src/index.js";

const textOf = (content: unknown) =>
  typeof content === "string"
    ? content
    : (content as Array<{ type: string; text?: string }>).map((b) => b.text ?? "").join("");

describe("Anthropic adapter: a 5 MB tool result", () => {
  it("is stored whole; artifacts_get tool uses page through all of it, byte for byte", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createAnthropicRefs({ store, session: "big-5mb", maxChars: 100_000 });
    const log = bigToolLog(5 * 1024 * 1024);
    const block = await refs.toolResultBlock({ id: "u1", name: "run_tests", input: {} }, () => log);
    let n = 0;
    await expectStoredWholeAndPaged(store, "big-5mb", log, textOf(block.content), async (ref, selector) => {
      const answer = await refs.handleToolUse({
        type: "tool_use",
        id: `g${n++}`,
        name: "artifacts_get",
        input: { ref, selector },
      });
      expect(answer?.is_error).toBeFalsy();
      return textOf(answer!.content);
    });
  });
});
