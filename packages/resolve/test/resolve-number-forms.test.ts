import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { plainNumber } from "../src/resolution/number-forms.js";

describe("one amount written two ways", () => {
  it("plain digits of a suffixed or separated amount", () => {
    expect(plainNumber("12.5k")).toBe("12500");
    expect(plainNumber("3M")).toBe("3000000");
    expect(plainNumber("7,250")).toBe("7250");
    expect(plainNumber("812")).toBeUndefined();
    expect(plainNumber("v2")).toBeUndefined();
  });

  const session = [
    {
      id: "n1",
      tool_name: "execute_bash",
      tool_args: { command: "wc -l exports/cities.csv" },
      label: "wc -l exports/cities.csv",
      summary: "12,500 exports/cities.csv",
      result_type: "success" as const,
    },
    {
      id: "n2",
      tool_name: "execute_bash",
      tool_args: { command: "wc -l exports/rivers.csv" },
      label: "wc -l exports/rivers.csv",
      summary: "7250 exports/rivers.csv",
      result_type: "success" as const,
    },
    {
      id: "n3",
      tool_name: "read_file",
      tool_args: { path: "exports/README" },
      label: "exports/README",
      summary: "exports refreshed nightly from the atlas db",
      result_type: "success" as const,
    },
  ];

  it("a message's 12.5k meets a record's 12,500", () => {
    expect(resolveReferences("which one's the 12.5k csv", session).candidates[0]?.id).toBe("n1");
  });

  it("a message's 12500 meets a record's 12,500", () => {
    expect(resolveReferences("the 12500 csv again", session).candidates[0]?.id).toBe("n1");
  });
});
