import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { agentBases } from "../src/resolution/agent-nouns.js";

const session = [
  {
    id: "g1",
    tool_name: "execute_bash",
    tool_args: { command: "head -n 3 data/birds.tsv" },
    label: "head -n 3 data/birds.tsv",
    summary: "species\tcount\tsite; wren\t4\tnorth; kite\t1\teast",
    result_type: "success" as const,
  },
  {
    id: "g2",
    tool_name: "execute_bash",
    tool_args: { command: "acme-lint scripts/" },
    label: "acme-lint scripts/",
    summary: "3 warnings: unused import in tally.py:2, long line in tally.py:40, bare except in fetch.py:12",
    result_type: "success" as const,
  },
  {
    id: "g3",
    tool_name: "read_file",
    tool_args: { path: "scripts/tally.py" },
    label: "scripts/tally.py",
    summary: "reads birds.tsv, sums count by site",
    result_type: "success" as const,
  },
];

describe("the doer of an action", () => {
  it("a tool's jargon '-er' noun finds the record of its verb", () => {
    expect(agentBases("formatter")).toContain("format");
    expect(resolveReferences("so what did the linter complain about", session).candidates[0]?.id).toBe("g2");
  });

  it("an everyday '-er' word is no doer of a command that shares its start", () => {
    expect(agentBases("header")).toEqual([]);
    expect(agentBases("user")).toEqual([]);
  });
});
