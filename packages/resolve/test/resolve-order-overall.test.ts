// "the one before the last, what …?": an order phrase with a generic noun, then a clause of its own, counts
// every execution; an order phrase that names a kind counts that kind. Sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "p1",
    tool_name: "execute_bash",
    tool_args: { command: "sensorctl read kiln-probe" },
    summary: "kiln temperature 1,180 C, ramp +2 C/min",
  },
  {
    id: "p2",
    tool_name: "execute_bash",
    tool_args: { command: "sensorctl read kiln-probe" },
    summary: "kiln temperature 1,214 C, ramp +1 C/min",
  },
  {
    id: "p3",
    tool_name: "send_message",
    tool_args: { to: "studio" },
    summary: "told the studio the glaze firing is on schedule",
  },
];
const first = (text: string) => resolveReferences(text, session).candidates[0]?.id;

describe("the one before the last, then a question of its own", () => {
  it("counts every execution when the order phrase's noun is generic", () => {
    expect(first("the one before the last, what temperature did it report?")).toBe("p2");
    expect(first("the second-to-last result: which temperature was it?")).toBe("p2");
  });

  it("counts the kind when the order phrase names it", () => {
    expect(first("the second-to-last temperature reading")).toBe("p1");
    expect(first("what did the second to last kiln temperature say")).toBe("p1");
  });
});
