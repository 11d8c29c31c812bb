// A question asking for advice or about what would happen refers to nothing, even in the session's own words;
// one that points at a record or a failure still finds it. Session and wordings written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "b1",
    tool_name: "execute_bash",
    tool_args: { command: "pg_dump --format=custom shop > shop.dump" },
    summary: "dump written: 2.3 GB, 41 tables",
  },
  {
    id: "b2",
    tool_name: "execute_bash",
    tool_args: { command: "restic backup shop.dump --tag nightly" },
    summary: "exit 1: repository locked by another process",
    result_type: "error",
  },
  {
    id: "b3",
    tool_name: "read_file",
    tool_args: { path: "ops/backup-policy.md" },
    summary: "nightly dumps kept 14 days, weekly kept 8 weeks, offsite copy to a second region",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("advice asked", () => {
  it("refers to nothing, in the session's own words", () => {
    expect(ids("should we keep the nightly dumps longer than 14 days?")).toEqual([]);
    expect(ids("do you think we should move backups to a managed service?")).toEqual([]);
    expect(ids("do we have to encrypt the offsite copy for compliance?")).toEqual([]);
    expect(ids("would it be cheaper if we switch the dump format to plain sql?")).toEqual([]);
    expect(ids("is it a bad idea to keep the dump on the same disk as the database?")).toEqual([]);
    expect(ids("is it normal for a 2 GB dump to take this many tables?")).toEqual([]);
    expect(ids("can you recommend a tool for offsite backups?")).toEqual([]);
    expect(ids("will restic drop the old snapshots too if we pass --prune?")).toEqual([]);
    expect(ids("what happens to the dump if you cancel it halfway?")).toEqual([]);
  });

  it("advice about a record pointed at or a failure still finds it", () => {
    expect(ids("should we just retry the backup that failed?")[0]).toBe("b2");
    // Which dump record wins is scoring's business; the decision step must not drop the pointed-at question.
    expect(ids("should I worry about that dump size?")).not.toEqual([]);
  });

  it("a question about what a result said is no advice", () => {
    expect(ids("how long are the weekly dumps kept?")[0]).toBe("b3");
    expect(ids("did the backup fail because the repository was locked?")[0]).toBe("b2");
  });
});

describe("advice naming a directory", () => {
  const disk: ExecutionLike[] = [
    { id: "d1", tool_name: "execute_bash", tool_args: { command: "df -h /srv" }, summary: "/srv 91% used of 200G" },
    {
      id: "d2",
      tool_name: "execute_bash",
      tool_args: { command: "du -sh /srv/*" },
      summary: "/srv/media 140G, /srv/db 38G",
    },
    { id: "d3", tool_name: "read_file", tool_args: { path: "/etc/fstab" }, summary: "/srv on /dev/sdb1 ext4" },
  ];
  const on = (text: string) => resolveReferences(text, disk).candidates.map((c) => c.id);

  it("refers to nothing: the directory is what the advice is about", () => {
    expect(on("should we move /srv/media to object storage or just grow the volume?")).toEqual([]);
  });

  it("advice naming a file still points at it", () => {
    expect(on("should we mount /srv with noatime in /etc/fstab?")[0]).toBe("d3");
  });
});
