// "compare the first X with the final one": "one" in the second part is a record of the kind the first part names.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const run = (id: string, summary: string): ExecutionLike => ({
  id,
  tool_name: "execute_bash",
  tool_args: { command: "python bench/latency.py --p99" },
  summary,
  result_type: "success",
});

const session: ExecutionLike[] = [
  run("p1", "p99 latency 212 ms"),
  {
    id: "p2",
    tool_name: "write_file",
    tool_args: { path: "src/pool.py" },
    summary: "pool size 8 -> 32",
    result_type: "success",
  },
  run("p3", "p99 latency 140 ms"),
  run("p4", "p99 latency 96 ms"),
];

describe("decide: the other part of a comparison named by 'one'", () => {
  it("takes the kind of the first part", () => {
    expect(parseQuery("compare the first p99 latency with the final one").parts).toEqual([
      "the first p99 latency",
      "the last p99 latency",
    ]);
  });

  it("resolves both records", () => {
    const r = resolveReferences("compare the earliest p99 latency with the final one", session);
    expect(r.candidates.slice(0, 2).map((c) => c.id)).toEqual(["p1", "p4"]);
  });
});
