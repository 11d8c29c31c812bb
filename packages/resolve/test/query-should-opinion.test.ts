// The message reader: a question opening with "should" asks for an opinion on what to do, not for a record, unless it
// asks whether something should have happened. Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "w1",
    tool_name: "read_file",
    tool_args: { path: "jobs/nightly_backup.yaml" },
    summary: "cron job nightly backup of the primary database at 03:00, keeps 7 copies",
  },
  {
    id: "w2",
    tool_name: "execute_bash",
    tool_args: { command: "kubectl get cronjobs -n db" },
    summary: "2 cronjobs: nightly-backup (last run 6h ago), vacuum-weekly",
  },
];

describe("a question opening with should", () => {
  it("about a thing of the session is advice and refers to nothing", () => {
    expect(parseQuery("should the backup cron job run against the replica some day?").advice).toBe(true);
    expect(
      resolveReferences("should the backup cron job run against the replica some day?", session).candidates,
    ).toEqual([]);
    expect(resolveReferences("tbh should the weekly vacuum move to sunday nights?", session).candidates).toEqual([]);
  });

  it("whether something should have happened is no advice", () => {
    expect(parseQuery("should the backup job have finished by now?").advice).toBe(false);
  });
});
