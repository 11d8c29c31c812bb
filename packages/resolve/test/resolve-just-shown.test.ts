// A yes/no question about a thing pointed at ("are the copies …?", "so is that build …?") that the latest record
// clearly leads on asks about what was just shown, even when it shares only a word or a concept word with it.
// Sessions and messages written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "j1",
    tool_name: "execute_bash",
    tool_args: { command: "rsync -a /mnt/card/DCIM/ /srv/archive/2026/" },
    summary: "sent 14.2 GB, 3,120 files",
  },
  {
    id: "j2",
    tool_name: "execute_bash",
    tool_args: { command: "cd /srv/archive/2026 && md5sum -c /mnt/card/DCIM/MANIFEST.md5" },
    summary: "3,118 OK; IMG_0412.CR3: FAILED; IMG_0977.CR3: FAILED",
  },
];

describe("a yes/no question about what was just shown", () => {
  it("is answered by the latest record when it clearly leads", () => {
    expect(resolveReferences("are the moved shots identical, every single one?", session).candidates[0]?.id).toBe("j2");
  });

  it("a question about a norm is not", () => {
    expect(resolveReferences("what should a sane photo backup schedule be?", session).candidates).toEqual([]);
  });
});
