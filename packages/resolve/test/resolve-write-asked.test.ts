import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";

// One file read, then written: a message asking what went into it is the write's; asking what it says, the read's.
const session = [
  {
    id: "k1",
    tool_name: "read_file",
    tool_args: { path: "trip/packing-list.md" },
    label: "trip/packing-list.md",
    summary: "tent, stove, two mugs, headlamp",
    result_type: "success" as const,
  },
  {
    id: "k2",
    tool_name: "write_file",
    tool_args: { path: "trip/packing-list.md" },
    label: "trip/packing-list.md",
    summary: "Wrote 220 bytes: rain shell, spare batteries, water filter",
    result_type: "success" as const,
  },
  {
    id: "k3",
    tool_name: "execute_bash",
    tool_args: { command: "df -h /home" },
    label: "df -h /home",
    summary: "/home 71% used",
    result_type: "success" as const,
  },
];

describe("what went into a file", () => {
  it("is the file's write", () => {
    expect(resolveReferences("what did you stick, er, add to the packing list", session).candidates[0]?.id).toBe("k2");
  });

  it("what the file says is still its read", () => {
    expect(resolveReferences("what's on the packing list", session).candidates[0]?.id).toBe("k1");
  });
});
