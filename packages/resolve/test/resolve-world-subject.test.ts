// "how many rows per page can a typical grid render?": a world question whose asked amount takes a few words before
// the modal and an indefinite subject refers to nothing; the same amount asked about the session still finds it.
// Session and wordings written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "w1",
    tool_name: "http_request",
    tool_args: { method: "GET", url: "http://localhost:3000/api/rows?page=1" },
    summary: "200 OK: 50 rows per page, 18 pages",
  },
  {
    id: "w2",
    tool_name: "execute_bash",
    tool_args: { command: "wrk -t2 -c50 -d10s http://localhost:3000/api/rows" },
    summary: "Requests/sec: 1840; latency p99 92 ms",
  },
  {
    id: "w3",
    tool_name: "read_file",
    tool_args: { path: "src/grid/RowGrid.tsx" },
    summary: "virtualized grid: renders 50 rows per page, overscan 10",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("a world question with a longer asked amount", () => {
  it("refers to nothing", () => {
    expect(ids("how many requests per second can a small api server handle?")).toEqual([]);
    expect(ids("how many rows per page can a virtualized grid render smoothly?")).toEqual([]);
  });

  it("the same amount asked about the session still finds it", () => {
    expect(ids("how many rows per page does the grid render?")[0]).toBe("w3");
    expect(ids("what was the p99 latency in the wrk run?")[0]).toBe("w2");
  });
});

describe("why/how would a thing …", () => {
  it("asks about the world: refers to nothing", () => {
    expect(ids("why would a grid render slowly with only 50 rows?")).toEqual([]);
    expect(ids("how could an api server return 200 but no rows?")).toEqual([]);
  });

  it("about the session's own thing it still finds the record", () => {
    expect(ids("why would the grid in RowGrid.tsx need an overscan of 10?")[0]).toBe("w3");
  });
});

describe("does X still / anymore …", () => {
  it("a present-state question about a product refers to nothing", () => {
    expect(ids("does wrk still get updates these days?")).toEqual([]);
    expect(ids("do grid libraries still need polyfills anymore?")).toEqual([]);
  });

  it("the session's own thing with 'still' keeps its record", () => {
    expect(ids("is the grid in RowGrid.tsx still rendering 50 rows per page?")[0]).toBe("w3");
    // A bare name whose record holds most of the words: the session's state asked about.
    expect(ids("does RowGrid still render 50 rows per page?")[0]).toBe("w3");
    expect(ids("does wrk still report a p99 of 92 ms?")[0]).toBe("w2");
  });
});

describe("a failure asked about in the world's present", () => {
  it("refers to nothing", () => {
    expect(ids("how often do api servers fail under load?")).toEqual([]);
    expect(ids("why do grid components crash when one row is huge?")).toEqual([]);
  });

  it("a failure that happened in the session is still found", () => {
    const failing: ExecutionLike[] = [
      ...session,
      {
        id: "w4",
        tool_name: "execute_bash",
        tool_args: { command: "npm run e2e -- grid" },
        summary: "2 failed: RowGrid crashes when a row is 4 MB",
        result_type: "error",
      },
    ];
    expect(resolveReferences("why did the grid e2e fail?", failing).candidates[0]?.id).toBe("w4");
    // A failure that persists is the session's failure asked about again.
    expect(resolveReferences("does RowGrid still crash on huge rows?", failing).candidates[0]?.id).toBe("w4");
    expect(resolveReferences("does e2e crash anymore?", failing).candidates[0]?.id).toBe("w4");
  });
});

describe("which/what <tool noun> <present verb> about the world", () => {
  it("refers to nothing when no record holds its words", () => {
    expect(ids("which unix command prints disk quotas?")).toEqual([]);
    expect(ids("what search engine is popular in korea?")).toEqual([]);
  });

  it("a tool question about the session still finds the record", () => {
    expect(ids("which command gave 1840 requests/sec?")[0]).toBe("w2");
    expect(ids("what file is read for the grid?")[0]).toBe("w3");
  });
});
