// "line up A against B", "put A next to B": a comparison in other words resolves each side on its own.
// Session and wordings written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "q1",
    tool_name: "execute_bash",
    tool_args: { command: "redis-cli info memory" },
    summary: "used_memory_human: 1.2G, maxmemory 2G",
  },
  { id: "q2", tool_name: "read_file", tool_args: { path: "redis/redis.conf" }, summary: "maxmemory-policy noeviction" },
  {
    id: "q3",
    tool_name: "write_file",
    tool_args: { path: "redis/redis.conf" },
    summary: "maxmemory-policy set to allkeys-lru",
  },
  {
    id: "q4",
    tool_name: "execute_bash",
    tool_args: { command: "redis-cli info memory" },
    summary: "used_memory_human: 1.9G, maxmemory 2G",
  },
  {
    id: "q5",
    tool_name: "execute_bash",
    tool_args: { command: "redis-cli info memory" },
    summary: "used_memory_human: 1.4G, maxmemory 2G, evicted_keys 3120",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("a comparison in other words", () => {
  it("line up A against B", () => {
    expect(ids("line up the first memory reading against the latest one")).toEqual(["q1", "q5"]);
  });

  it("put A next to B", () => {
    expect(ids("put the earliest memory info next to the newest one please")).toEqual(["q1", "q5"]);
  });
});
