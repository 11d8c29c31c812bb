// What a record's own text implies, in the forms a person writes: an abbreviation's plural ("GBs" for "GB").
// Sessions written for this test.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const first = (text: string, session: ExecutionLike[]) => resolveReferences(text, session).candidates[0]?.id;

const photos: ExecutionLike[] = [
  {
    id: "p1",
    tool_name: "execute_bash",
    tool_args: { command: "exiftool -csv camera/2026-06/ > meta.csv" },
    summary: "412 image files read; 3 without a capture date",
  },
  {
    id: "p2",
    tool_name: "execute_bash",
    tool_args: { command: "du -sh camera/*" },
    summary: "camera/2026-05 18 GB, camera/2026-06 31 GB, camera/2026-07 9 GB",
  },
  {
    id: "p3",
    tool_name: "read_file",
    tool_args: { path: "albums/summer.txt" },
    summary: "album list: 64 photos picked for the print book",
  },
];

describe("an abbreviation's plural and singular name the same thing", () => {
  it("meets 'GB' from 'GBs'", () => {
    expect(first("how many GBs per month are we at?", photos)).toBe("p2");
  });
});
