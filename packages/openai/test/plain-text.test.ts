// What the model reads from artifacts_get through the OpenAI adapter is plain text (the selected
// content, then lines on what it was and the call for the next part), and following the call it
// names rebuilds the content; a bad call reads `CODE: message` with a hint naming a tool.
import { expectPlainError, itFollowsPlainAnswers } from "@artifact-refs/tooling/testing/follow-next";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createOpenAIRefs } from "../src/index.js";

const store = new ArtifactStore({ driver: new MemoryDriver() });
const refs = createOpenAIRefs({ store, session: "plain" });
let n = 0;

async function ask(args: unknown): Promise<string> {
  const id = `call_${++n}`;
  const message = await refs.handleToolCall({
    id,
    type: "function",
    function: { name: "artifacts_get", arguments: JSON.stringify(args) },
  });
  expect(message).toMatchObject({ role: "tool", tool_call_id: id });
  return message!.content;
}

describe("OpenAI adapter: artifacts_get answers in plain text", () => {
  itFollowsPlainAnswers(
    (content, mime) => store.put(content, { session: "plain", mime }),
    (ref, selector) => ask({ ref, selector }),
  );

  it("answers bad calls with CODE: message and a hint naming a tool, never a command line", async () => {
    const missing = await ask({ ref: `art:${"0".repeat(12)}` });
    expectPlainError(missing, "NOT_FOUND");
    expect(missing).toMatch(/artifacts_list|artifacts_get/);
    expectPlainError(await ask({ ref: "art:nothex" }), "INVALID_HANDLE");
    const put = await store.put("a\nb\n", { session: "plain" });
    expectPlainError(await ask({ ref: put.shortRef, selector: { mode: "range", start: 9 } }), "INVALID_SELECTOR");
  });
});
