// A word of the present ("now", "right now", "currently") is no position of the session by itself: a question about
// the world that carries one refers to nothing; one that points at the session ("is it …", "the log …") keeps the
// order. Session and wordings written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "p1",
    tool_name: "web_search",
    tool_args: { query: "object storage pricing per terabyte" },
    summary: "three vendors compared: egress fees differ most; cold tier cheapest at one vendor",
  },
  {
    id: "p2",
    tool_name: "execute_bash",
    tool_args: { command: "rclone sync ./photos remote:archive --progress" },
    summary: "transferred 812 files, 4.1 GiB, 0 errors",
  },
  {
    id: "p3",
    tool_name: "execute_bash",
    tool_args: { command: "journalctl -u rclone-sync --since today" },
    summary: "sync service active; last run finished 09:14, next timer 21:00",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("words of the present", () => {
  it("a question about the world with 'now' refers to nothing", () => {
    expect(ids("which airline has the roomiest seats right now?")).toEqual([]);
    expect(ids("does spotify let families share one plan now?")).toEqual([]);
    expect(ids("what are mortgage rates like currently?")).toEqual([]);
  });

  it("a question pointing at the session keeps 'now' as the latest", () => {
    expect(ids("is it still running now?")[0]).toBe("p3");
    expect(ids("what does the log say now?")[0]).toBe("p3");
    expect(ids("how many files did you transfer, right now?")[0]).toBe("p2");
  });
});

describe("'the current' as a word of the present", () => {
  it("a question about the world's current thing refers to nothing", () => {
    expect(ids("which rclone release is the current stable?")).toEqual([]);
  });

  it("'the current one' or the session's current state keeps the order", () => {
    expect(ids("and the current one?")[0]).toBe("p3");
    expect(ids("what is the current state of the sync service?")[0]).toBe("p3");
  });
});
