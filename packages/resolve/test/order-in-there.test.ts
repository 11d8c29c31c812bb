// "how many are in there?": "there" at the end of a question points at what was just shown, the latest record the
// words pick, not an earlier one holding the same word. Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";

describe("'in there' at the end points at what was just shown", () => {
  it("reads as the latest", () => {
    expect(parseQuery("how many invoices are in there?").temporal?.kind).toBe("latest");
    expect(parseQuery("anything odd out of there").temporal?.kind).toBe("latest");
    expect(parseQuery("is there a shop in there somewhere in town").temporal).toBeUndefined();
  });

  it("picks the latest record with the word", () => {
    const session = [
      { id: "i0", tool_name: "execute_bash", tool_args: { command: "ls inbox" }, summary: "march.txt april.txt" },
      {
        id: "i1",
        tool_name: "web_search",
        tool_args: { query: "how many invoices before audit" },
        summary: "9 results: accounting blogs",
      },
      { id: "i3", tool_name: "execute_bash", tool_args: { command: "date" }, summary: "Tue 10:02" },
      {
        id: "i2",
        tool_name: "read_file",
        tool_args: { path: "inbox/march.txt" },
        summary: "March: invoices from ACME, Bolt and Crane; Bolt overdue",
      },
    ];
    expect(resolveReferences("how many invoices are in there", session).candidates[0]?.id).toBe("i2");
  });
});
