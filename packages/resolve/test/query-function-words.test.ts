// The message reader: function words and word forms it used to misread as content words. Messages and sessions
// written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";
import { stem } from "../src/resolution/tokens.js";

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

describe("the word 'key'", () => {
  it("a plural of a three-letter word stems to the word ('keys' → 'key', 'days' → 'day')", () => {
    expect(stem("keys")).toBe(stem("key"));
    expect(stem("days")).toBe(stem("day"));
    expect(stem("logs")).toBe(stem("log"));
    expect(stem("class")).toBe("class");
  });

  it("a unit of time is no near word of a topic word ('start' is not matched to a record's '2 days ago')", () => {
    const start = parseQuery("where does the script start").terms.find((t) => t.word === "start");
    expect(start?.near).not.toContain("day");
  });

  it('"the api key" finds the record about a key: "key" is a content word', () => {
    const session: ExecutionLike[] = [
      {
        id: "b1",
        tool_name: "fetch_url",
        tool_args: { url: "https://maps.example.com/docs/limits" },
        summary: "api limits: 600 calls a minute, 3 regions",
      },
      {
        id: "b2",
        tool_name: "execute_bash",
        tool_args: { command: "vault kv get payments/stripe" },
        summary: "api key for the payments provider, rotated in march",
      },
      { id: "b3", tool_name: "web_search", tool_args: { query: "ferry times" }, summary: "4 ferries a day" },
    ];
    expect(parseQuery("which api key did we pull?").terms.map((t) => t.word)).toContain("key");
    for (const text of [
      "which api key did we pull?",
      "the api key, what was it?",
      "what did the api keys look like?",
    ]) {
      const [top, next] = resolveReferences(text, session).candidates;
      expect(top?.id).toBe("b2");
      expect(top?.reasons.join(" ")).toMatch(/"keys?" in summary/);
      expect(next === undefined || next.score < top!.score).toBe(true);
    }
  });

  it('"key points" still asks for a summary, not a record about a key', () => {
    expect(parseQuery("give me the key points of the readme").terms.map((t) => t.word)).not.toContain("key");
  });
});
