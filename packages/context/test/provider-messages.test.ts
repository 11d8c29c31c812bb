import { describe, expect, it } from "vitest";
import { partsText, partsToHistory, toolCallInput } from "../src/index.js";

describe("the adapters' shared message conversion", () => {
  it("puts tool results first as tool messages, then text, calls and other parts as one message", () => {
    const out = partsToHistory(
      "assistant",
      [
        { type: "text", text: "looking" },
        { type: "tool-result", id: "r1", name: "grep", content: "3 matches" },
        { type: "tool-call", id: "c1", name: "read_file", input: { path: "a.md" } },
        { type: "other", value: { type: "image", url: "x" } },
      ],
      false,
    );
    expect(out).toEqual([
      { role: "tool", content: "3 matches", tool_call_id: "r1", tool_name: "grep" },
      {
        role: "assistant",
        content: 'looking\n{"type":"image","url":"x"}',
        tool_calls: [{ id: "c1", name: "read_file", arguments: '{"path":"a.md"}' }],
      },
    ]);
  });

  it("drops an empty message unless asked to keep it", () => {
    expect(partsToHistory("user", [], false)).toEqual([]);
    expect(partsToHistory("user", [], true)).toEqual([{ role: "user", content: "" }]);
  });

  it("keeps arguments that are not JSON as text, and non-text parts as JSON", () => {
    expect(toolCallInput('{"a":1}')).toEqual({ a: 1 });
    expect(toolCallInput("not json")).toEqual({ arguments: "not json" });
    expect(partsText([{ type: "text", text: "hi" }, { type: "image" }])).toBe('hi\n{"type":"image"}');
  });
});
