// Failure told in two more forms: the verb written apart ("why did that time out?") and a run shown red ("which
// checks are red?"). Either makes the message one about a failed record.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { failureAsked } from "../src/resolution/failure-words.js";

const session: ExecutionLike[] = [
  {
    id: "f1",
    tool_name: "read_file",
    tool_args: { path: "conf/broker.conf" },
    summary: "listener 1883, persistence true, max_queued_messages 1000",
    result_type: "success",
  },
  {
    id: "f2",
    tool_name: "execute_bash",
    tool_args: { command: "nc -z -w 5 broker.lan 1883" },
    summary: "no reply within 5 s",
    result_type: "error",
  },
  {
    id: "f3",
    tool_name: "read_file",
    tool_args: { path: "conf/acl.conf" },
    summary: "user sensors: topic read home/#",
    result_type: "success",
  },
];

describe("decide: failure forms", () => {
  it("reads a timeout written apart and a red run as a failure", () => {
    expect(failureAsked("how come the sync timed out?")).toBe(true);
    expect(failureAsked("which checks are still red")).toBe(true);
    expect(failureAsked("what time is it out there")).toBe(false);
    expect(failureAsked("which wines are red")).toBe(false);
  });

  it("resolves the failed record", () => {
    expect(resolveReferences("hmm, so why did the sync time out?", session).candidates[0]?.id).toBe("f2");
  });
});
