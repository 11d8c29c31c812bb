// A 5 MB tool result (about 10x the one-blob size) through the OpenAI adapter: stored whole (chunked
// by the store), the model gets a short reference, and artifacts_get calls page through all of it.
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { bigToolLog, expectStoredWholeAndPaged } from "@artifact-refs/tooling/testing/paging";
import { describe, it } from "vitest";
import { createOpenAIRefs } from "../src/index.js";

describe("OpenAI adapter: a 5 MB tool result", () => {
  it("is stored whole; artifacts_get tool calls page through all of it, byte for byte", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createOpenAIRefs({ store, session: "big-5mb", maxChars: 100_000 });
    const log = bigToolLog(5 * 1024 * 1024);
    const message = await refs.toolMessage(
      { id: "c1", type: "function", function: { name: "run_tests", arguments: "{}" } },
      () => log,
    );
    let n = 0;
    await expectStoredWholeAndPaged(store, "big-5mb", log, message.content, async (ref, selector) => {
      const answer = await refs.handleToolCall({
        id: `g${n++}`,
        type: "function",
        function: { name: "artifacts_get", arguments: JSON.stringify({ ref, selector }) },
      });
      return answer!.content;
    });
  });
});
