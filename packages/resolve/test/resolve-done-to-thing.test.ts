// A thing named by what the session did to it ("the salvaged pictures", "the exported tracks") points at the session:
// the record that stands clearly above the rest answers even when it holds only part of the message's words.
// Session and wordings written for these tests (photos rescued from a memory card), not a sentence of any reference set.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "p1",
    tool_name: "execute_bash",
    tool_args: { command: "lsblk -o NAME,SIZE,FSTYPE /dev/sdb" },
    summary: "sdb 64G, sdb1 64G exfat",
  },
  {
    id: "p2",
    tool_name: "execute_bash",
    tool_args: { command: "photorec /d ~/rescue /cmd /dev/sdb1 search" },
    summary: "312 files found: 298 jpg, 14 mp4",
  },
  {
    id: "p3",
    tool_name: "execute_bash",
    tool_args: { command: "rsync -c --dry-run -r ~/rescue/ /mnt/backup/dcim/" },
    summary: "checksums identical for 296 of 298 jpg; 2 differ: f1203.jpg, f1877.jpg",
  },
  {
    id: "p4",
    tool_name: "web_search",
    tool_args: { query: "exfat sd card corrupted after camera battery died" },
    summary: "5 results: forum 'run fsck.exfat', photorec wiki 'recovering from formatted cards'",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("a thing named by what was done to it", () => {
  it("the clear leader answers", () => {
    expect(ids("are the salvaged pictures honestly identical to the originals from the trip?")[0]).toBe("p3");
    expect(ids("are the salvaged holiday pictures identical to the originals?")[0]).toBe("p3");
  });

  it("a question about the world in the same words still refers to nothing", () => {
    expect(ids("is photorec better than testdisk for a formatted card in general?")).toEqual([]);
  });
});
