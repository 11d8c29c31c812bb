// A question about what a result said, in the past tense, naming its thing with "the" ("the exact quota complaint"):
// the record that clearly leads on it answers, when the others score only through a related word. "exact" and
// "kept <verb>ing" name nothing a record must hold. Sessions and messages written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "q1",
    tool_name: "execute_bash",
    tool_args: { command: "supervisorctl status mailer" },
    summary: "mailer BACKOFF, exited too quickly (process log may have details)",
  },
  {
    id: "q2",
    tool_name: "execute_bash",
    tool_args: { command: "tail -n 50 /var/log/mailer/stderr.log" },
    summary: "'spool write failed: disk quota exceeded for user mailer' every few seconds",
  },
  {
    id: "q3",
    tool_name: "read_file",
    tool_args: { path: "/etc/supervisor/conf.d/mailer.conf" },
    summary: "command=/opt/mailer/bin/run, autorestart=true, startretries=3; 9 lines",
  },
];

describe("a past question about a thing named with 'the'", () => {
  it("reads 'exact' and 'kept dying' as no words of a record", () => {
    const words = parseQuery("what was the exact quota complaint it kept dying with?").terms.map((t) => t.word);
    expect(words).not.toContain("exact");
    expect(words).not.toContain("kept");
  });

  it("is answered by the record that clearly leads on it", () => {
    const r = resolveReferences("what was the exact quota complaint it kept dying with?", session);
    expect(r.candidates[0]?.id).toBe("q2");
  });

  it("keeps 'keep' as a word where it is one", () => {
    const words = parseQuery("how many copies does the backup keep?").terms.map((t) => t.word);
    expect(words).toContain("keep");
  });
});
