// A file named in the message, held by a record of the file itself (written or read) and by a command that only
// runs it: "what does X do" is the file's record; a question about the run is the command's. Written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "f1",
    tool_name: "write_file",
    tool_args: { path: "deploy/rollout.sh" },
    summary: "Wrote 880 bytes: drains each node, pulls the image, waits for health, then moves on",
  },
  {
    id: "f2",
    tool_name: "execute_bash",
    tool_args: { command: "bash deploy/rollout.sh --dry-run" },
    summary: "exit 1: node-3 health check timed out after 120 s",
    result_type: "error",
  },
];
const first = (text: string) => resolveReferences(text, session).candidates[0]?.id;

describe("a file named: the file or the run of it", () => {
  it("'what does X do' is the file's own record", () => {
    expect(first("what does rollout.sh do exactly")).toBe("f1");
    expect(resolveReferences("what does rollout.sh do exactly", session).ambiguous).toBe(false);
  });

  it("a question about the run is the command", () => {
    expect(first("why did rollout.sh fail")).toBe("f2");
    expect(first("what did rollout.sh print")).toBe("f2");
  });
});
