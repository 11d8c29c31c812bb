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

describe("an event named with 'that'/'this' and a noun", () => {
  const firing: ExecutionLike[] = [
    {
      id: "f1",
      tool_name: "write_file",
      tool_args: { path: "glazes/celadon.txt" },
      summary: "Wrote 310 bytes: recipe v1",
    },
    {
      id: "f2",
      tool_name: "execute_bash",
      tool_args: { command: "kilnctl fire --profile cone6" },
      summary: "firing complete, peak 1,222 C",
    },
    { id: "f3", tool_name: "read_file", tool_args: { path: "logs/kiln.log" }, summary: "cooling curve, 14 h to 60 C" },
    {
      id: "f4",
      tool_name: "write_file",
      tool_args: { path: "glazes/celadon.txt" },
      summary: "Wrote 344 bytes: recipe v2",
    },
    {
      id: "f5",
      tool_name: "execute_bash",
      tool_args: { command: "kilnctl fire --profile cone6" },
      summary: "firing complete, peak 1,219 C",
    },
  ];
  const top = (text: string) => resolveReferences(text, firing).candidates[0]?.id;

  it("'before that firing' is before the latest firing, not the firing before it", () => {
    expect(top("the step just before that firing, what did you write?")).toBe("f4");
    expect(top("the step right after that recipe, what did it print?")).toBe("f5");
  });

  it("'before that happened' and 'before that one' are still no event", () => {
    expect(top("before that one, what did the kiln log say")).toBe("f3");
  });
});
