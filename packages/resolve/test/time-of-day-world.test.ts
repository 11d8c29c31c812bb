// A time of day is read as the order of a message only when the message is about the session (or is little more than
// the time); a question about the world that happens to hold a time stays unanswered. Messages written for this test.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/internal.js";

const at = (hm: string) => `2026-05-02T${hm}:00Z`;
const session: ExecutionLike[] = [
  {
    id: "k1",
    tool_name: "read_file",
    tool_args: { path: "oven.toml" },
    summary: "preheat 220",
    timestamp: at("06:55"),
  },
  {
    id: "k2",
    tool_name: "list_files",
    tool_args: { path: "/srv/bakery" },
    summary: "4 entries",
    timestamp: at("07:30"),
  },
  {
    id: "k3",
    tool_name: "execute_bash",
    tool_args: { command: "df -h /" },
    summary: "71% used",
    timestamp: at("07:41"),
  },
];

describe("a time of day in a message about the world", () => {
  it("names no record: the message neither points at the session nor is only the time", () => {
    for (const text of [
      "is a yoga class at 7:30 too early for beginners?",
      "my bus comes at 7:30, will i get to school by 8:00?",
    ])
      expect(resolveReferences(text, session).candidates).toEqual([]);
  });

  it("still orders a message about the session, or one that is little more than the time", () => {
    expect(resolveReferences("what did you look at around 7:30?", session).candidates[0]?.id).toBe("k2");
    expect(resolveReferences("and at 7:41?", session).candidates[0]?.id).toBe("k3");
  });
});
