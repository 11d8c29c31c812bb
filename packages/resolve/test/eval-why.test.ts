// eval --why: the step that lost a miss, on a session written for this test.
import { describe, expect, it } from "vitest";
import { whyMissed } from "../eval/why.js";
import type { ExecutionLike } from "../src/index.js";

const xs: ExecutionLike[] = [
  {
    id: "a1",
    tool_name: "read_file",
    tool_args: { path: "orchard/rows.csv" },
    summary: "40 rows of apple trees, 6 marked blighted",
  },
  {
    id: "a2",
    tool_name: "execute_bash",
    tool_args: { command: "pump-ctl status" },
    summary: "pump idle, pressure 2.1 bar",
  },
];

describe("whyMissed", () => {
  it("places a miss answered with nothing by the expected record's raw rank", () => {
    expect(
      whyMissed("anything odd about the blighted apple trees and the cider press schedule", xs, ["a1"], [], []),
    ).toBe("nothing: expected raw top");
    expect(whyMissed("what about the greenhouse heater", xs, ["a2"], [], [])).toBe("nothing: expected scores 0");
    expect(whyMissed("in general, how often should apple trees be pruned?", xs, ["a1"], [], [])).toBe(
      "nothing: called general",
    );
  });

  it("places a wrong answer by the expected record's score against the answer's", () => {
    expect(whyMissed("pump pressure", xs, ["a1"], ["a2", "a1"], [1, 0.95])).toBe("wrong answer, expected tied");
    expect(whyMissed("pump pressure", xs, ["a1"], ["a2", "a1"], [1, 0.2])).toBe("wrong answer, expected far");
    expect(whyMissed("pump pressure", xs, ["a1"], ["a2"], [1])).toBe("wrong answer, expected not among the candidates");
  });
});
