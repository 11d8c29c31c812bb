// "without running a query, …", "no need to check, …": the message says its answer is not in the session.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "n1",
    tool_name: "sql_query",
    tool_args: { query: "EXPLAIN ANALYZE SELECT * FROM orders WHERE customer_id = 42 ORDER BY created_at" },
    summary: "Index Scan using orders_customer_created_idx; 0.4 ms",
    result_type: "success",
  },
  {
    id: "n2",
    tool_name: "read_file",
    tool_args: { path: "db/migrations/0031_orders_index.sql" },
    summary: "CREATE INDEX orders_customer_created_idx ON orders (customer_id, created_at)",
    result_type: "success",
  },
];

describe("decide: an answer not to be looked up", () => {
  it("refers to nothing", () => {
    for (const text of [
      "without running anything, how do multicolumn indexes handle order by in postgres?",
      "no need to check the db, do indexes slow down inserts much?",
    ])
      expect(resolveReferences(text, session).candidates, text).toEqual([]);
  });

  it("leaves a question about a record alone", () => {
    expect(resolveReferences("which index did the orders query use?", session).candidates[0]?.id).toBe("n1");
  });

  it("only as the message's opening clause: a record asked about 'without' something still resolves", () => {
    expect(
      resolveReferences("what did the explain show without checking the seq scan?", session).candidates[0]?.id,
    ).toBe("n1");
  });
});
