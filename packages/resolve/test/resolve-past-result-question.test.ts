import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";

// A question about what a result said, in the past tense, with no tool named: the one record that clearly
// leads on part of its words answers it; the same words asked in the present about the world answer nothing.
const session = [
  {
    id: "r1",
    tool_name: "read_file",
    tool_args: { path: "office/floor-plan.md" },
    label: "office/floor-plan.md",
    summary: "three rooms: print corner, kitchen, meeting room B",
    result_type: "success" as const,
  },
  {
    id: "r2",
    tool_name: "execute_bash",
    tool_args: { command: "lpstat -p" },
    label: "lpstat -p",
    summary: "hall-b: paper jammed at tray 2 since 09:14; hall-a: idle, 140 sheets left",
    result_type: "success" as const,
  },
  {
    id: "r3",
    tool_name: "read_file",
    tool_args: { path: "office/supplies.csv" },
    label: "office/supplies.csv",
    summary: "toner 3 boxes, staples 12 packs, envelopes 400",
    result_type: "success" as const,
  },
];

describe("a past-tense question about a result", () => {
  it("is answered by the record that clearly leads on its words", () => {
    const r = resolveReferences("which device jammed", session);
    expect(r.candidates[0]?.id).toBe("r2");
  });

  it("a present question of the world with the same word is not", () => {
    expect(resolveReferences("why do cheap devices get jammed so often", session).candidates).toEqual([]);
  });

  it("a past-tense question whose words a record barely holds is not", () => {
    expect(
      resolveReferences("which old laser device in the basement hallway jammed last winter", session).candidates,
    ).toEqual([]);
  });
});

describe("a past-tense question two records answer alike", () => {
  it("is not answered by this rule: it picks a record only when that record alone holds the words", () => {
    const two = [
      ...session,
      {
        id: "r4",
        tool_name: "read_file",
        tool_args: { path: "office/incidents.md" },
        label: "office/incidents.md",
        summary: "march: stapler jammed twice",
        result_type: "success" as const,
      },
    ];
    expect(resolveReferences("which device jammed", two).candidates).toEqual([]);
  });
});
