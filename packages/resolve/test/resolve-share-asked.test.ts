// "what share of …", "what percentage of …" ask for a share, as "how full" does: the record that gives one ("35%",
// "14 of 40") answers, and wins over a close record that gives none. Sessions and messages written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "u1",
    tool_name: "execute_bash",
    tool_args: { command: "ansible all -m setup -a filter=ansible_kernel" },
    summary: "40 hosts: 14 on kernel 5.15 (35%), 26 on 6.8",
  },
  {
    id: "u2",
    tool_name: "read_file",
    tool_args: { path: "docs/kernel-upgrade.md" },
    summary: "plan: move hosts off the old kernel 5.15 before march; 30 lines",
  },
];

describe("a share asked", () => {
  it("is a question for an amount of the kind 'share'", () => {
    expect(parseQuery("what percentage of hosts had the old kernel?").valueUnit?.kind).toBe("fill");
    expect(parseQuery("what fraction of the jobs failed?").valueUnit?.kind).toBe("fill");
  });

  it("is answered by the record that gives a share", () => {
    expect(resolveReferences("what share of the hosts were on the old kernel?", session).candidates[0]?.id).toBe("u1");
    expect(resolveReferences("what percentage of hosts had the old kernel?", session).candidates[0]?.id).toBe("u1");
  });
});
