// "the second thing you searched for": an ordinal of a generic noun followed by a clause with a verb that names a
// kind counts that kind; with a verb that names none ("the second thing you did") it counts every execution.
// Session written for this test.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "web_search",
    tool_args: { query: "tomato seedling hardening off schedule" },
    summary: "7 results: harden seedlings over 7-10 days, start with 1 hour of shade",
  },
  {
    id: "g2",
    tool_name: "read_file",
    tool_args: { path: "garden/beds.md" },
    summary: "4 raised beds, bed 3 gets afternoon shade, frost cloth in the shed",
  },
  {
    id: "g3",
    tool_name: "web_search",
    tool_args: { query: "last frost date zone 6b" },
    summary: "9 results: average last frost mid-April, plant tomatoes 2 weeks after",
  },
  {
    id: "g4",
    tool_name: "web_search",
    tool_args: { query: "companion planting basil tomatoes" },
    summary: "6 results: basil next to tomatoes, keep fennel away",
  },
];
const first = (text: string) => resolveReferences(text, session).candidates[0]?.id;

describe("an ordinal of a generic noun with a clause of its own", () => {
  it("counts the kind the clause's verb names", () => {
    expect(first("the second thing you searched for, what did the results say about frost?")).toBe("g3");
    expect(first("the first thing we googled - how many days of hardening?")).toBe("g1");
  });

  it("counts every execution when the verb names no kind", () => {
    expect(first("the second thing you did, which bed gets shade?")).toBe("g2");
  });
});
