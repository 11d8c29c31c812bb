import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";
import { readHints } from "../src/resolution/tool-hints.js";

// One page fetched early, then commands whose arguments hold a word near the message's topic.
const session = [
  {
    id: "w1",
    tool_name: "fetch_url",
    tool_args: { url: "https://docs.example.dev/orm/4.0/upgrade-guide" },
    label: "docs.example.dev/orm/4.0/upgrade-guide",
    summary: "Upgrade guide 3.x to 4.0: query builder now async; default pool size 10",
    result_type: "success" as const,
  },
  {
    id: "w2",
    tool_name: "execute_bash",
    tool_args: { command: "git diff --stat HEAD~3" },
    label: "git diff --stat HEAD~3",
    summary: "7 files changed, 120 insertions(+), 41 deletions(-)",
    result_type: "success" as const,
  },
  {
    id: "w3",
    tool_name: "execute_bash",
    tool_args: { command: "npm ls example-orm" },
    label: "npm ls example-orm",
    summary: "example-orm@3.9.2",
    result_type: "success" as const,
  },
];

describe("a kind said twice, by a noun and a verb", () => {
  it("names the kind outright", () => {
    expect(readHints("the web page you fetched, what else was in it", []).hints.get("fetch")?.weight).toBe(3);
    expect(readHints("what did the page say", []).hints.get("fetch")?.weight).toBe(2.5);
  });

  it("the page you fetched beats a command whose arguments hold only a related word", () => {
    const text = "the docs page you downloaded: did it mention any deprecations?";
    expect(resolveReferences(text, session).candidates[0]?.id).toBe("w1");
  });
});
