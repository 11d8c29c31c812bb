import { describe, expect, it } from "vitest";
import { resolveReferences } from "../src/index.js";

// Two notes about the same upgrade step; only one says it is a concern for large data.
const session = [
  {
    id: "s1",
    tool_name: "fetch_url",
    tool_args: { url: "https://example.org/blog/warehouse-5-upgrade" },
    label: "example.org/blog/warehouse-5-upgrade",
    summary: "Upgrade notes: the reindex step rewrites every partition and runs for hours on large partitions",
    result_type: "success" as const,
  },
  {
    id: "s2",
    tool_name: "execute_bash",
    tool_args: { command: "wh admin reindex --status" },
    label: "wh admin reindex --status",
    summary: "reindex step: partition 12 of 40 done (eta 3 h)",
    result_type: "success" as const,
  },
];

describe("size said in other words", () => {
  it("big partitions are the large partitions a record wrote about", () => {
    const r = resolveReferences("which step did they say takes ages on big partitions?", session);
    expect(r.candidates[0]?.id).toBe("s1");
  });
});
