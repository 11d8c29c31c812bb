// The message reader: a question or a request for something new that points at nothing of the session names tool
// kinds in general ("how many tests is too many?", "give me a command to …"); its tool words are no hint of a record,
// so the decision step's coverage check applies. Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  { id: "f1", tool_name: "run_tests", tool_args: { path: "tests/" }, summary: "58 passed, 2 skipped in 9.1s" },
  {
    id: "f2",
    tool_name: "execute_bash",
    tool_args: { command: "du -sh media/*" },
    summary: "media/raw 14G, media/proxies 2.2G",
  },
  { id: "f3", tool_name: "http_get", tool_args: { url: "https://status.example.net/api" }, summary: "200, all green" },
  { id: "f4", tool_name: "read_file", tool_args: { path: "logs/worker.log" }, summary: "412 lines, 3 warnings" },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("tool words of a question about the world", () => {
  it("give no hint when nothing points at the session", () => {
    expect(parseQuery("how many tests are too many for one class?").hints.size).toBe(0);
    expect(parseQuery("give me a command that shows open ports").hints.size).toBe(0);
    expect(parseQuery("what does wget -c do?").hints.size).toBe(0);
  });

  it("are answered with nothing", () => {
    expect(ids("how many tests are too many for one class?")).toEqual([]);
    expect(ids("give me a command that shows open ports")).toEqual([]);
    expect(ids("what does wget -c do?")).toEqual([]);
    expect(ids("how long should logs be kept for an audit?")).toEqual([]);
  });

  it("keep their hint when something points at the session", () => {
    expect(parseQuery("how many tests passed?").hints.has("test")).toBe(true);
    expect(parseQuery("what did the command print for media?").hints.has("exec")).toBe(true);
    expect(ids("how many tests passed?")[0]).toBe("f1");
    expect(ids("what's in the worker log?")[0]).toBe("f4");
  });
});
