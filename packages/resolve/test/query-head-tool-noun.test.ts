// "and the lookup, …", "the build: …": a tool noun set apart at the head of the message names the referent; the
// words after it ask about that record even when another record holds one of them. Messages and records written for
// these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";

describe("a tool noun set apart at the head of the message", () => {
  it("counts its kind twice", () => {
    const set = parseQuery("and the search, anything from actual owners or only manuals?").hints.get("search");
    const plain = parseQuery("anything from actual owners or only manuals in the search?").hints.get("search");
    expect(set?.weight).toBeGreaterThan(plain?.weight ?? 0);
  });

  it("picks the record of that kind over one holding a word of the question", () => {
    const session = [
      {
        id: "k0",
        tool_name: "read_file",
        tool_args: { path: "home/kettle-notes.txt" },
        summary: "bought 2024, white crust",
      },
      {
        id: "k1",
        tool_name: "web_search",
        tool_args: { query: "kettle limescale descaling vinegar" },
        summary: "7 results: forum threads, a retailer FAQ",
      },
      {
        id: "k2",
        tool_name: "fetch_url",
        tool_args: { url: "https://example.com/docs/kettle-k200.html" },
        summary: "K200: descale monthly with citric acid",
      },
      { id: "k3", tool_name: "execute_bash", tool_args: { command: "date" }, summary: "Tue 10:02" },
    ];
    expect(resolveReferences("and the search, was it real owners or just docs?", session).candidates[0]?.id).toBe("k1");
  });
});
