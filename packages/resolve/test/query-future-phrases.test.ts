// The message reader: "at some point", "some day", "down the road" speak of a plan, not of a result of the session.
// Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "f1",
    tool_name: "read_file",
    tool_args: { path: "jobs/nightly_backup.yaml" },
    summary: "cron job nightly backup of the primary database at 03:00, keeps 7 copies",
  },
  {
    id: "f2",
    tool_name: "execute_bash",
    tool_args: { command: "kubectl get cronjobs -n db" },
    summary: "2 cronjobs: nightly-backup (last run 6h ago), vacuum-weekly",
  },
];

describe("a plan said with a vague time", () => {
  it("is a question about the future, answered with nothing", () => {
    for (const text of [
      "should the backup cron job run against the replica at some point?",
      "could the weekly vacuum move to sunday nights down the road?",
      "maybe the backup job should keep 14 copies some day",
    ]) {
      expect(parseQuery(text).world).toBe(true);
      expect(resolveReferences(text, session).candidates).toEqual([]);
    }
  });

  it("a question about what the session showed is still answered", () => {
    expect(resolveReferences("how many copies does the backup job keep?", session).candidates[0]?.id).toBe("f1");
  });
});
