// The message reader: an opinion asked of the assistant ("what do you prefer and why") is advice, not a reference
// to a record. Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "i1",
    tool_name: "execute_bash",
    tool_args: { command: "git pull --rebase" },
    summary: "updating 3f2a..9c1d, fast-forward",
  },
  { id: "i2", tool_name: "read_file", tool_args: { path: "CONTRIBUTING.md" }, summary: "squash merges only, 40 lines" },
];

describe("an opinion asked", () => {
  it("is advice and no talk of the session", () => {
    const q = parseQuery("squash or merge commits when updating main, which do you prefer?");
    expect(q.advice).toBe(true);
    expect(q.aboutSession).toBe(false);
  });

  it("is answered with nothing", () => {
    expect(
      resolveReferences("squash or merge commits when updating main, which do you prefer?", session).candidates,
    ).toEqual([]);
  });
});
