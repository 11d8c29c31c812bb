// A request for something new about a day ("draft an email about today's …") refers to nothing: a calendar day only
// orders records the message's words pick, it points at none. Sessions and messages written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "v1",
    tool_name: "http_get",
    tool_args: { url: "https://status.example.net/api/incidents?since=today" },
    summary: "1 incident: payments api degraded 10:02-10:40, resolved",
    timestamp: "2026-03-04T11:00:00Z",
  },
  {
    id: "v2",
    tool_name: "execute_bash",
    tool_args: { command: "grep -c 'payment failed' /var/log/shop/app.log" },
    summary: "312",
    timestamp: "2026-03-04T11:05:00Z",
  },
];

describe("a day in a request for something new", () => {
  it("does not make the request a reference", () => {
    expect(
      resolveReferences("draft an apology email to our buyers about today's payments incident", session).candidates,
    ).toEqual([]);
  });

  it("a question about the day's result is still answered", () => {
    expect(resolveReferences("what did today's incident list say about payments?", session).candidates[0]?.id).toBe(
      "v1",
    );
  });
});
