// What the model reads from the AI SDK artifacts_get tool is plain text (the selected content, then
// lines on what it was and the call for the next part), and following the call it names rebuilds
// the content; a bad call is a tool error (the SDK sends the model `error-text`) reading
// `CODE: message` with a hint naming a tool, never a command line.
import { expectPlainError, itFollowsPlainAnswers } from "@artifact-refs/tooling/testing/follow-next";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createAiSdkRefs } from "../src/index.js";

const store = new ArtifactStore({ driver: new MemoryDriver() });
const refs = createAiSdkRefs({ store, session: "plain" });
let n = 0;

async function ask(input: Record<string, unknown>): Promise<string> {
  const out = await refs.tool.execute!(input, { toolCallId: `c${++n}`, messages: [] });
  expect(typeof out).toBe("string");
  return out as string;
}

/** A bad call throws (the AI SDK's tool error); its message is the text the model reads, with the stable code. */
async function askBad(input: Record<string, unknown>, code: string): Promise<string> {
  const error: unknown = await Promise.resolve(refs.tool.execute!(input, { toolCallId: `c${++n}`, messages: [] })).then(
    () => expect.unreachable("a bad artifacts_get call must be a tool error"),
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: "ArefError", code });
  return (error as Error).message;
}

describe("AI SDK adapter: artifacts_get answers in plain text", () => {
  itFollowsPlainAnswers(
    (content, mime) => store.put(content, { session: "plain", mime }),
    (ref, selector) => ask({ ref, selector }),
  );

  it("answers bad calls with a tool error reading CODE: message and a hint naming a tool, never a command line", async () => {
    const missing = await askBad({ ref: `art:${"0".repeat(12)}` }, "NOT_FOUND");
    expectPlainError(missing, "NOT_FOUND");
    expect(missing).toMatch(/artifacts_list|artifacts_get/);
    expectPlainError(await askBad({ ref: "art:nothex" }, "INVALID_HANDLE"), "INVALID_HANDLE");
  });
});
