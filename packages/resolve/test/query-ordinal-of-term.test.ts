// The message reader: "explain the second law of motion" asks about a term of the world whose name holds an ordinal;
// it is no position among records. Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  { id: "j1", tool_name: "read_file", tool_args: { path: "physics/notes.md" }, summary: "kinematics notes, 80 lines" },
  { id: "j2", tool_name: "execute_bash", tool_args: { command: "python sim.py" }, summary: "error: mass must be > 0" },
];

describe("an ordinal inside a term", () => {
  it("gives no order", () => {
    expect(parseQuery("explain the second law of thermodynamics vs the first law").temporal).toBeUndefined();
    expect(resolveReferences("explain the second law of thermodynamics vs the first law", session).candidates).toEqual(
      [],
    );
  });

  it("an ordinal of a record noun still orders", () => {
    expect(parseQuery("explain the first error").temporal?.kind).toBe("first");
    expect(parseQuery("describe the second file we read").temporal?.kind).toBe("nth");
  });
});
