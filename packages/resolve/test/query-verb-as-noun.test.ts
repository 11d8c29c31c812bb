// The message reader: a request verb after a determiner ("the first explain", "that describe") names a command that
// ran, so it is a content word and an order word before it orders that kind. Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "n1",
    tool_name: "execute_bash",
    tool_args: { command: "psql -c 'EXPLAIN ANALYZE SELECT * FROM orders WHERE region = 1'" },
    summary: "Seq Scan on orders, rows 2,314, 6,840 ms",
  },
  {
    id: "n2",
    tool_name: "execute_bash",
    tool_args: { command: "psql -c 'CREATE INDEX orders_region ON orders (region)'" },
    summary: "CREATE INDEX",
  },
  {
    id: "n3",
    tool_name: "execute_bash",
    tool_args: { command: "psql -c 'EXPLAIN ANALYZE SELECT * FROM orders WHERE region = 1'" },
    summary: "Index Scan using orders_region, rows 2,314, 38 ms",
  },
  { id: "n4", tool_name: "read_file", tool_args: { path: "db/notes.md" }, summary: "index ideas; 12 lines" },
];

describe("a request verb used as a noun", () => {
  it("is a content word after a determiner, and a request elsewhere", () => {
    expect(parseQuery("the first explain, how slow was it").terms.map((t) => t.word)).toContain("explain");
    expect(parseQuery("explain the notes to me").terms.map((t) => t.word)).not.toContain("explain");
  });

  it("an order word before it orders the runs of that command", () => {
    expect(resolveReferences("the first explain, how slow was it", session).candidates[0]?.id).toBe("n1");
  });
});
