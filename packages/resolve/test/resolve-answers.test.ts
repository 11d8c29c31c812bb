// A question about an amount is answered by the result that gives the number, on sessions written
// for this test (no sentence of the reference data sets).
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "a1",
    tool_name: "sql_query",
    tool_args: { query: "SELECT state, COUNT(*) FROM orders GROUP BY state" },
    summary: "3 rows: shipped 1,204, cancelled 57, returned 31",
    result_type: "success",
  },
  {
    id: "a2",
    tool_name: "sql_query",
    tool_args: { query: "SELECT region, SUM(total) FROM orders WHERE state = 'cancelled' GROUP BY region" },
    summary: "5 rows: emea 9,300, apac 4,120, na 2,900, latam 800, other 40",
    result_type: "success",
  },
  {
    id: "a3",
    tool_name: "write_file",
    tool_args: { path: "notes/orders.md" },
    summary: "Wrote 900 bytes",
    result_type: "success",
  },
];

describe("questions about an amount", () => {
  it("prefer the result that gives a number for the word over the request that holds it", () => {
    const r = resolveReferences("how many orders got cancelled?", session);
    expect(r.candidates[0]!.id).toBe("a1");
    expect(r.ambiguous).toBe(false);
    expect(r.candidates[0]!.reasons.some((why) => why.startsWith('answer: the result gives "cancelled" = 57'))).toBe(
      true,
    );
  });

  it("leave other questions to the words alone (no answer reason)", () => {
    const r = resolveReferences("which regions had cancelled orders?", session);
    expect(r.candidates[0]!.id).toBe("a2");
    expect(r.candidates.every((c) => c.reasons.every((why) => !why.startsWith("answer:")))).toBe(true);
  });
});
