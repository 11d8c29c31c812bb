// "monthly", "weekly", "daily": an adjective of a calendar period matches the period a record groups by ("month").
// Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/internal.js";
import { stem } from "../src/resolution/tokens.js";

describe("adjectives of a calendar period", () => {
  it("stem to the period", () => {
    expect(stem("monthly")).toBe(stem("month"));
    expect(stem("weekly")).toBe(stem("weeks"));
    expect(stem("daily")).toBe(stem("day"));
    expect(stem("quarterly")).toBe(stem("quarter"));
  });

  it("other words in -ly keep their stem", () => {
    expect(stem("family")).not.toBe("fami");
    expect(stem("early")).not.toBe(stem("ear"));
  });

  it("a period adjective picks the record grouped by that period", () => {
    const session = [
      {
        id: "g2",
        tool_name: "sql_query",
        tool_args: { query: "select date_trunc('week', sold_at), sum(qty) from sales group by 1" },
        summary: "9 rows",
      },
      {
        id: "g1",
        tool_name: "sql_query",
        tool_args: { query: "select store, sum(qty) from sales group by store" },
        summary: "12 rows",
      },
      { id: "g3", tool_name: "read_file", tool_args: { path: "notes/shelves.md" }, summary: "aisle plan, 4 shelves" },
    ];
    expect(resolveReferences("the weekly sums of the sales", session).candidates[0]?.id).toBe("g2");
  });
});
