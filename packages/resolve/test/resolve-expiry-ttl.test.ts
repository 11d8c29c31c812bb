// Concept words: an expiry is a TTL ("time to live"); a message about things that never expire matches a record that
// reports keys or entries without a TTL. Sessions and messages written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "t1",
    tool_name: "execute_bash",
    tool_args: { command: "memcached-tool cache-2:11211 stats" },
    summary: "curr_items 880k, evictions 0, get_hits 12M",
  },
  {
    id: "t2",
    tool_name: "execute_bash",
    tool_args: { command: "python scripts/audit_cache.py --host cache-2" },
    summary: "610k items with TTL 3600, 270k items with TTL 0",
  },
  {
    id: "t3",
    tool_name: "read_file",
    tool_args: { path: "app/cache.py" },
    summary: "set_item(), get_item(); 90 lines",
  },
];

describe("expiry and TTL", () => {
  it("a message about expiry finds the record about TTLs", () => {
    expect(resolveReferences("which items had no expiry?", session).candidates[0]?.id).toBe("t2");
  });
});
