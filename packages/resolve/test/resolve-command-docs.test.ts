// What a command does, from the CLI specs compiled into data/command-docs.json, on sessions written
// for this test (no sentence of the reference data sets).
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { describeCommand } from "../src/resolution/command-docs.js";

const session: ExecutionLike[] = [
  {
    id: "c1",
    tool_name: "execute_bash",
    tool_args: { command: "docker ps -a" },
    summary: "3 rows: api Up 2 hours, worker Exited (1), redis Up 2 hours",
  },
  {
    id: "c2",
    tool_name: "execute_bash",
    tool_args: { command: "git log --oneline -5" },
    summary: "5 rows: a1b2c3 fix retry, 9f8e7d bump deps, ...",
  },
  {
    id: "c4",
    tool_name: "execute_bash",
    tool_args: { command: "traceroute api.internal" },
    summary: "1 10.0.0.1 0.4 ms; 2 10.8.0.1 1.2 ms; 3 api.internal 2.0 ms",
  },
  {
    id: "c5",
    tool_name: "execute_bash",
    tool_args: { command: "helm list -n prod" },
    summary: "3 rows: api deployed (revision 12), worker deployed (7), redis failed (3)",
  },
  {
    id: "c3",
    tool_name: "read_file",
    tool_args: { path: "deploy/compose.yaml" },
    summary: "services api, worker, redis; api depends_on redis",
  },
];

describe("what a command does (CLI specs)", () => {
  it("describes a command line by its command, subcommands and options; nothing for an unknown one", () => {
    expect(describeCommand("git log --oneline")).toMatch(/commit logs/i);
    expect(describeCommand("sudo FOO=1 df -h /var")).toMatch(/disk space/i);
    expect(describeCommand("cat a.txt | wc -l")).toMatch(/line/i);
    // a subcommand that is another tool's spec reads on through it (docker compose → docker-compose)
    expect(describeCommand("docker compose logs --tail=50 api")).toMatch(/output from containers/i);
    expect(describeCommand("no-such-tool-here --x")).toBe("");
    expect(describeCommand("")).toBe("");
  });

  it("lets a message that names only what a command reports find it, with the reason", () => {
    const route = resolveReferences("which route did the packets follow?", session);
    expect(route.candidates[0]!.id).toBe("c4");
    expect(route.candidates[0]!.reasons.join(" ")).toMatch(/"route" in what the command does/);
    // Words only the description holds count toward covering the message, at the lowest field weight.
    expect(resolveReferences("what network path did the packets take?", session).candidates[0]!.id).toBe("c4");
  });

  it("does not turn a general question into a reference", () => {
    expect(resolveReferences("what is a container in general?", session).candidates).toEqual([]);
  });
});
