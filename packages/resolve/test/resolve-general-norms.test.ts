// A question about what is normal, best or cheapest in general, or a comparison of two things in general, refers to
// nothing even in the session's own nouns, unless something in it points at the session. Session and wordings
// written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "g1",
    tool_name: "execute_bash",
    tool_args: { command: "sqlite3 orders.db 'pragma journal_mode'" },
    summary: "journal_mode = wal; page cache 2000 pages",
  },
  {
    id: "g2",
    tool_name: "read_file",
    tool_args: { path: "config/pool.toml" },
    summary: "connection pool: max 40 connections, idle timeout 30 s, sqlite busy_timeout 5000 ms",
  },
  {
    id: "g3",
    tool_name: "execute_bash",
    tool_args: { command: "ab -n 2000 -c 40 http://127.0.0.1:8080/orders" },
    summary: "2000 requests, 312 req/s, p99 410 ms, 0 failed",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("general norms and comparisons", () => {
  it("what is normal, best or cheapest in general refers to nothing", () => {
    expect(ids("how many connections is normal for a pool?")).toEqual([]);
    expect(ids("which journal mode is the best for sqlite?")).toEqual([]);
    expect(ids("what is the best page cache size for sqlite?")).toEqual([]);
  });

  it("a comparison of two things in general refers to nothing", () => {
    expect(ids("is sqlite slower than postgres for many connections?")).toEqual([]);
    expect(ids("are toml files nicer than ini files for config?")).toEqual([]);
  });

  it("the same words pointed at the session still find the record", () => {
    expect(ids("is that p99 normal?")[0]).toBe("g3");
    expect(ids("is a p99 of 410 ms normal for your benchmark?")[0]).toBe("g3");
    expect(ids("is the pool timeout you read shorter than the busy timeout?")[0]).toBe("g2");
  });
});

describe("the default of a thing in general", () => {
  it("refers to nothing", () => {
    expect(ids("what is the default page cache size for sqlite?")).toEqual([]);
    expect(ids("what's the default busy timeout in sqlite?")).toEqual([]);
  });

  it("the default in a file the session read still finds it", () => {
    expect(ids("what's the default idle timeout in config/pool.toml?")[0]).toBe("g2");
  });
});

describe("the largest/max X of a thing in general", () => {
  it("refers to nothing", () => {
    expect(ids("what's the max number of connections for a sqlite database?")).toEqual([]);
    expect(ids("what is the largest page cache of any sqlite setup?")).toEqual([]);
  });

  it("the max of the session's own thing still finds it", () => {
    expect(ids("what's the max connections in the pool config?")[0]).toBe("g2");
  });
});

describe("what something is called", () => {
  it("refers to nothing", () => {
    expect(ids("what do you call a pool that hands out connections lazily?")).toEqual([]);
  });

  it("what a record called something is still a question about it", () => {
    expect(ids("what did the pool config call the idle timeout?")[0]).toBe("g2");
  });
});

describe("how big/many … should a thing be", () => {
  it("refers to nothing", () => {
    expect(ids("how many connections should a sqlite pool have?")).toEqual([]);
  });

  it("about the session's own pool it is still a question of that record", () => {
    expect(ids("how many connections does the pool config allow?")[0]).toBe("g2");
  });
});
