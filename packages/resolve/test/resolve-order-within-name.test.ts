// An order word ("first", "last") with a name: it ranges over the records the name picks, not over every record that
// shares a word with the message. Sessions and messages written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "read_file",
    tool_args: { path: "docs/setup.md" },
    summary: "setup guide: copy settings.toml from the template, then start both services; 60 lines",
  },
  {
    id: "k2",
    tool_name: "read_file",
    tool_args: { path: "services/api/settings.toml" },
    summary: "listen port 8080, 3 retries, log level info",
  },
  {
    id: "k3",
    tool_name: "read_file",
    tool_args: { path: "services/worker/settings.toml" },
    summary: "concurrency 4, queue jobs, log level debug",
  },
  { id: "k4", tool_name: "execute_bash", tool_args: { command: "systemctl restart api worker" }, summary: "ok" },
];

describe("an order word scoped to a name", () => {
  it("picks the first record of that name, not an earlier record that only mentions it", () => {
    const r = resolveReferences("the settings.toml I read first: which port does it listen on?", session);
    expect(r.candidates[0]?.id).toBe("k2");
  });

  it("picks the last record of that name", () => {
    const r = resolveReferences("the settings.toml I read last: what log level?", session);
    expect(r.candidates[0]?.id).toBe("k3");
  });
});
