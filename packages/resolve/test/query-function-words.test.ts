// The message reader: function words and word forms it used to misread as content words. Messages and sessions
// written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

describe("function words are no topic of the message", () => {
  it('"per" in "the timeouts per region" is no content word', () => {
    const q = parseQuery("how many timeouts per region did the probe log?");
    expect(q.terms.map((t) => t.word)).not.toContain("per");
    expect(q.topicWords).toEqual(expect.arrayContaining(["timeouts", "region"]));
  });

  it("a record that holds only the word 'per' does not answer a question about something else", () => {
    const session: ExecutionLike[] = [
      { id: "a1", tool_name: "read_file", tool_args: { path: "notes/tariffs.md" }, summary: "price per litre of milk" },
    ];
    expect(resolveReferences("what's the cost of gas per gallon nowadays?", session).candidates).toEqual([]);
  });
});
