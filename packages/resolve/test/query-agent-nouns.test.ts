// A coined agent noun ("the formatter", "the scraper") stands for what the tool does, which is the word a record holds
// ("format", "scrape"); a word of everyday English in -er ("header", "folder") keeps its own meaning.
// Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";
import { agentVerbs } from "../src/resolution/agent-nouns.js";

describe("coined agent nouns", () => {
  it("give the verb they come from", () => {
    expect(agentVerbs("formatter")).toContain("format");
    expect(agentVerbs("scraper")).toContain("scrape");
    expect(agentVerbs("bundlers")).toContain("bundle");
  });

  it("leave words of everyday English alone", () => {
    expect(agentVerbs("header")).toEqual([]);
    expect(agentVerbs("folder")).toEqual([]);
    expect(agentVerbs("printer")).toEqual([]);
    expect(parseQuery("what's in the header").terms.find((t) => t.word === "header")?.related).not.toContain("head");
  });

  it("find the record of what the tool did", () => {
    const session = [
      { id: "t1", tool_name: "read_file", tool_args: { path: "src/cart.ts" }, summary: "export function total(items)" },
      { id: "t2", tool_name: "execute_bash", tool_args: { command: "npm run format" }, summary: "14 files rewritten" },
      { id: "t3", tool_name: "execute_bash", tool_args: { command: "npm test" }, summary: "31 passed" },
    ];
    expect(resolveReferences("what did the formatter touch", session).candidates[0]?.id).toBe("t2");
  });
});
