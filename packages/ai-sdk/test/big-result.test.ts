// A 5 MB tool result (about 10x the one-blob size) through the AI SDK adapter's wrapped tool: stored
// whole (chunked by the store), the model gets a short reference, and the artifacts_get tool pages
// through all of it.
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { bigToolLog, expectStoredWholeAndPaged } from "@artifact-refs/tooling/testing/paging";
import { jsonSchema, tool, type ToolExecutionOptions } from "ai";
import { describe, it } from "vitest";
import { createAiSdkRefs } from "../src/index.js";

const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
const options = (id: string): ToolExecutionOptions => ({ toolCallId: id, messages: [] });

describe("AI SDK adapter: a 5 MB tool result", () => {
  it("is stored whole by a wrapped tool; artifacts_get pages through all of it, byte for byte", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const refs = createAiSdkRefs({ store, session: "big-5mb", maxChars: 100_000 });
    const log = bigToolLog(5 * 1024 * 1024);
    const tools = refs.wrapTools({
      run_tests: tool({
        description: "Run the tests",
        inputSchema: jsonSchema<Record<string, never>>({ type: "object", properties: {} }),
        execute: async () => log,
      }),
    });
    const shown = asText(await tools.run_tests.execute!({}, options("c1")));
    let n = 0;
    await expectStoredWholeAndPaged(store, "big-5mb", log, shown, async (ref, selector) =>
      asText(await tools.artifacts_get.execute!({ ref, selector }, options(`g${n++}`))),
    );
  });
});
