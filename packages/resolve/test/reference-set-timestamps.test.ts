import { describe, expect, it } from "vitest";
import { ReferenceSetSchema, evaluateReferenceSet } from "../src/index.js";

// Three log reads, in order, with the clock times they ran at: "about three hours ago" is the first one by its
// timestamp; without timestamps the words could only be read as an order.
const set = {
  version: 1,
  scenarios: [
    {
      id: "t1",
      executions: [
        {
          id: "a",
          tool_name: "read_file",
          tool_args: { path: "logs/worker-1.log" },
          timestamp: "2026-03-02T09:00:00Z",
        },
        {
          id: "b",
          tool_name: "read_file",
          tool_args: { path: "logs/worker-2.log" },
          timestamp: "2026-03-02T11:40:00Z",
        },
        {
          id: "c",
          tool_name: "read_file",
          tool_args: { path: "logs/worker-3.log" },
          timestamp: "2026-03-02T11:55:00Z",
        },
      ],
      queries: [
        { id: "q", after: "c", text: "the log you read about three hours ago", expected: ["a"], kind: "temporal" },
      ],
    },
  ],
};

describe("reference sets keep the executions' timestamps", () => {
  it("the parsed set holds each execution's timestamp", () => {
    const parsed = ReferenceSetSchema.parse(set);
    expect(parsed.scenarios[0]!.executions.map((e) => e.timestamp)).toEqual([
      "2026-03-02T09:00:00Z",
      "2026-03-02T11:40:00Z",
      "2026-03-02T11:55:00Z",
    ]);
  });

  it("a clock phrase is scored against the timestamps", () => {
    const report = evaluateReferenceSet(set);
    expect(report.outcomes[0]!.got[0]).toBe("a");
    expect(report.top1).toEqual({ correct: 1, total: 1 });
  });
});
