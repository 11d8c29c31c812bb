// A request that opens with a verb of looking ("check the …", "pull up my …") names no word of a record: a command
// run with "--check" is not what "check the deploy.yml" is about. Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";

const words = (text: string) => parseQuery(text).terms.map((t) => t.word);

describe("the looking verb that opens a request", () => {
  it("is no content word before a determiner, a possessive or a name", () => {
    expect(words("check the deploy.yml")).not.toContain("check");
    expect(words("can you pull up my packing list")).not.toContain("pull");
    expect(words("pls show me config/site.toml")).not.toContain("show");
  });

  it("stays a word elsewhere", () => {
    expect(words("what did the health check say")).toContain("check");
    expect(words("check mode or real run?")).toContain("check");
  });

  it("two reads of files of the same name are both offered", () => {
    const session = [
      { id: "a", tool_name: "read_file", tool_args: { path: "live/deploy.yml" }, summary: "replicas 6, region north" },
      {
        id: "b",
        tool_name: "execute_bash",
        tool_args: { command: "shipit --check -f sandbox/deploy.yml" },
        summary: "dry run: 3 resources would change",
      },
      {
        id: "c",
        tool_name: "read_file",
        tool_args: { path: "sandbox/deploy.yml" },
        summary: "replicas 1, region south",
      },
      { id: "d", tool_name: "web_search", tool_args: { query: "shipit rollout strategy" }, summary: "6 results" },
    ];
    const r = resolveReferences("check the deploy.yml", session);
    expect(r.ambiguous).toBe(true);
    expect(
      r.candidates
        .slice(0, 2)
        .map((c) => c.id)
        .sort(),
    ).toEqual(["a", "c"]);
  });
});
