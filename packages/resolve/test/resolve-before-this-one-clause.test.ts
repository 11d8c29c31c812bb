// "the result before this one, with …": a generic noun before "this one", then a clause of its own, is the record
// before the current one in the whole session, not the one before the latest record the clause's words pick.
// Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";

const session = [
  {
    id: "s1",
    tool_name: "execute_bash",
    tool_args: { command: "rsync -a photos/ nas:/photos" },
    summary: "sent 2.1 GB",
  },
  { id: "s2", tool_name: "read_file", tool_args: { path: "nas/quota.txt" }, summary: "photos 80 GB of 100 GB" },
  {
    id: "s3",
    tool_name: "execute_bash",
    tool_args: { command: "md5sum -c photos.md5" },
    summary: "IMG_0412.jpg: FAILED; IMG_0977.jpg: FAILED; 2 checksums did not match",
  },
  {
    id: "s4",
    tool_name: "execute_bash",
    tool_args: { command: "ls -l photos/IMG_0412.jpg photos/IMG_0977.jpg" },
    summary: "2 photos listed, sizes 0 bytes",
  },
];

describe("the result before this one, with a clause of its own", () => {
  it("reads the order over the whole session", () => {
    const op = parseQuery("the result before this one, the one with the broken photos").temporal;
    expect(op?.kind).toBe("previous");
    expect(op?.kind === "previous" && op.overall).toBe(true);
  });

  it("picks the record before the current one", () => {
    const r = resolveReferences("the result before this one, the one with the broken photos", session);
    expect(r.candidates[0]?.id).toBe("s3");
  });

  it("a kind named before it keeps the order to that kind", () => {
    const op = parseQuery("the file I read before that one").temporal;
    expect(op?.kind === "previous" && op.overall).toBeFalsy();
  });
});
