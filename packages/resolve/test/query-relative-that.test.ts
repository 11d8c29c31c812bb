// The message reader: "that"/"this" before a verb in -s opens a relative clause ("a script that checks …"); it points
// at no record. Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "run_tests",
    tool_args: { path: "spec/" },
    summary: "31 passed, 1 failed: parser rejects empty input",
  },
  { id: "g2", tool_name: "read_file", tool_args: { path: "src/parser.ts" }, summary: "parse(), 140 lines" },
];

describe("a relative 'that' is no pointer", () => {
  it("reads 'a script that checks' as a relative clause", () => {
    const q = parseQuery("how do i write a script that checks a port is open in python?");
    expect(q.demonstrative).toBe(false);
    expect(q.referring).toBe(false);
  });

  it("answers such a how-to with nothing", () => {
    expect(
      resolveReferences("how would i write a test that checks a parser throws on bad input?", session).candidates,
    ).toEqual([]);
  });

  it("still reads 'that check' and 'those checks' as pointers", () => {
    expect(parseQuery("what did that check say?").demonstrative).toBe(true);
    expect(parseQuery("were those checks green?").demonstrative).toBe(true);
  });
});
