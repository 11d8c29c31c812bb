// "which host timed out", "the job that keeps timing out": a time-out is a failure of the execution.
// Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";

describe("a time-out is a failure", () => {
  it("is read as a failure asked about", () => {
    expect(parseQuery("which printer timed out").wantsError).toBe(true);
    expect(parseQuery("the sync job keeps timing out, why").wantsError).toBe(true);
    expect(parseQuery("how long before a session times out or is it fine").wantsError).toBe(false);
  });

  it("picks the failed record", () => {
    const session = [
      {
        id: "h1",
        tool_name: "execute_bash",
        tool_args: { command: "ping -c1 printer-2" },
        summary: "1 received, 3 ms",
      },
      {
        id: "h2",
        tool_name: "execute_bash",
        tool_args: { command: "lpstat -h printer-3 -p" },
        summary: "lpstat: printer-3: request timed out after 30 s",
        result_type: "error",
      },
      { id: "h3", tool_name: "read_file", tool_args: { path: "office/desks.md" }, summary: "desk map, 14 seats" },
    ];
    expect(resolveReferences("which machine timed out", session).candidates[0]?.id).toBe("h2");
  });
});
