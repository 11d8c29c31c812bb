// "the 22.05k one", "12k rows": an amount in thousands with a "k" matches the digits a record prints ("22050").
// Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";

describe("amounts in thousands", () => {
  it("relate to the amount written out", () => {
    expect(parseQuery("the 22.05k one").terms.find((t) => t.word === "22.05k")?.related).toContain("22050");
    expect(parseQuery("about 12k rows").terms.find((t) => t.word === "12k")?.related).toContain("12000");
  });

  it("find the record that prints the amount", () => {
    const session = [
      {
        id: "w1",
        tool_name: "execute_bash",
        tool_args: { command: "soxi birds.wav" },
        summary: "Sample Rate: 22050, Channels: 1",
      },
      {
        id: "w2",
        tool_name: "execute_bash",
        tool_args: { command: "soxi rain.wav" },
        summary: "Sample Rate: 96000, Channels: 2",
      },
      { id: "w3", tool_name: "read_file", tool_args: { path: "README.txt" }, summary: "field recordings, spring set" },
    ];
    expect(resolveReferences("which clip is the 22.05k one", session).candidates[0]?.id).toBe("w1");
  });
});
