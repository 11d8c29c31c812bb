// The message reader: "w/o", "b/c", "n/a" abbreviate words; they are no path the session must hold. Messages and
// sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "s1",
    tool_name: "sql_query",
    tool_args: { query: "SELECT count(*) FROM invoices WHERE paid_at IS NULL" },
    summary: "1 row: 212 unpaid invoices",
  },
  {
    id: "s2",
    tool_name: "read_file",
    tool_args: { path: "billing/reminders.py" },
    summary: "send_reminder(), 80 lines",
  },
];

describe("a letter, a slash and a letter", () => {
  it("is no name", () => {
    expect(parseQuery("how many invoices were left w/o payment?").names).toEqual([]);
    expect(parseQuery("skip it b/c the invoices query covered it").names).toEqual([]);
  });

  it("does not keep a message from its record", () => {
    expect(
      resolveReferences("how many invoices were still sitting there w/o payment?", session).candidates[0]?.id,
    ).toBe("s1");
  });

  it("a real path is still a name", () => {
    expect(parseQuery("what is in billing/reminders.py?").names).toContain("billing/reminders.py");
  });
});
