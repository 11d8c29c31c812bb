// A path or host written in the message that a record's result states (not one it acted on) is a name of
// that record: "/srv/tiles" in a mount listing, "cache.internal" in a log line. Sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "m1",
    tool_name: "execute_bash",
    tool_args: { command: "mount | column -t" },
    summary: "/dev/vdb1 on /srv/tiles type xfs (rw,noatime); /dev/vda1 on / type ext4",
  },
  { id: "m2", tool_name: "read_file", tool_args: { path: "conf/tileserver.toml" }, summary: "port 8080, workers 6" },
  {
    id: "m3",
    tool_name: "grep",
    tool_args: { pattern: "timeout", path: "logs/app.log" },
    summary: "12 matches: upstream cache.internal timed out after 3s",
  },
];
const first = (text: string) => resolveReferences(text, session).candidates[0]?.id;

describe("a name the result states", () => {
  it("finds the record whose result holds the path or host", () => {
    expect(first("which filesystem is /srv/tiles on?")).toBe("m1");
    expect(first("how often did cache.internal time out")).toBe("m3");
  });

  it("a name no record holds anywhere still refers to nothing", () => {
    expect(first("which filesystem is /srv/maps on?")).toBeUndefined();
  });
});
