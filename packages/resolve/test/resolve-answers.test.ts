// A question about an amount is answered by the result that gives the number, on sessions written
// for this test (no sentence of the reference data sets).
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";

const session: ExecutionLike[] = [
  {
    id: "a1",
    tool_name: "sql_query",
    tool_args: { query: "SELECT state, COUNT(*) FROM orders GROUP BY state" },
    summary: "3 rows: shipped 1,204, cancelled 57, returned 31",
    result_type: "success",
  },
  {
    id: "a2",
    tool_name: "sql_query",
    tool_args: { query: "SELECT region, SUM(total) FROM orders WHERE state = 'cancelled' GROUP BY region" },
    summary: "5 rows: emea 9,300, apac 4,120, na 2,900, latam 800, other 40",
    result_type: "success",
  },
  {
    id: "a3",
    tool_name: "write_file",
    tool_args: { path: "notes/orders.md" },
    summary: "Wrote 900 bytes",
    result_type: "success",
  },
];

describe("questions about an amount", () => {
  it("prefer the result that gives a number for the word over the request that holds it", () => {
    const r = resolveReferences("how many orders got cancelled?", session);
    expect(r.candidates[0]!.id).toBe("a1");
    expect(r.ambiguous).toBe(false);
    expect(r.candidates[0]!.reasons.some((why) => why.startsWith('answer: the result gives "cancelled" = 57'))).toBe(
      true,
    );
  });

  it("leave other questions to the words alone (no answer reason)", () => {
    const r = resolveReferences("which regions had cancelled orders?", session);
    expect(r.candidates[0]!.id).toBe("a2");
    expect(r.candidates.every((c) => c.reasons.every((why) => !why.startsWith("answer:")))).toBe(true);
  });
});

const ops: ExecutionLike[] = [
  {
    id: "o1",
    tool_name: "execute_bash",
    tool_args: { command: "du -sh build/cache" },
    summary: "4.2G\tbuild/cache",
  },
  {
    id: "o2",
    tool_name: "execute_bash",
    tool_args: { command: "make bundle" },
    summary: "bundle written; finished in 3m12s",
  },
  {
    id: "o3",
    tool_name: "read_file",
    tool_args: { path: "docs/cache-policy.md" },
    summary: "cache policy: entries expire after a week; the cache is pruned nightly",
  },
];

describe("questions about an amount of a kind", () => {
  it("a size question prefers the result that states a size, a duration question one that states a duration", () => {
    const size = resolveReferences("how much space does the cache use?", ops);
    expect(size.candidates[0]!.id).toBe("o1");
    expect(size.candidates[0]!.reasons.join(" ")).toMatch(/answer: the result gives .*a size \(4\.2G\)/);
    const time = resolveReferences("how long did the bundle take?", ops);
    expect(time.candidates[0]!.id).toBe("o2");
    expect(time.candidates[0]!.reasons.join(" ")).toMatch(/a duration \(3m12s\)/);
  });

  it("an amount alone does not make a general question about the session", () => {
    expect(resolveReferences("how long does light take to reach the earth?", ops).candidates).toEqual([]);
    expect(resolveReferences("how much memory does a typical laptop have?", ops).candidates).toEqual([]);
  });
});

describe("the words that ask for the amount", () => {
  const net: ExecutionLike[] = [
    {
      id: "n1",
      tool_name: "execute_bash",
      tool_args: { command: "rsync -a dist/ web-2:/srv/app" },
      summary: "exit 255: ssh: connect to host web-2 port 22: connection timed out after 30s",
      result_type: "error",
    },
    {
      id: "n2",
      tool_name: "execute_bash",
      tool_args: { command: "traceroute -F web-2 1500" },
      summary: "exit 1: packet too long 1500, 1 hop",
      result_type: "error",
    },
    {
      id: "n3",
      tool_name: "execute_bash",
      tool_args: { command: "rsync -a dist/ web-3:/srv/app" },
      summary: "sent 42 files, 3.1 MB",
    },
  ];

  it("are answered by an amount of the kind, not by a number written beside the same word ('too long 1500')", () => {
    const r = resolveReferences("the rsync that failed, how long did it wait before giving up?", net);
    expect(r.candidates[0]?.id).toBe("n1");
    expect(r.candidates.flatMap((c) => c.reasons).join(" ")).not.toMatch(/"long" =/);
  });
});

describe("how full something is", () => {
  const hosts: ExecutionLike[] = [
    {
      id: "f1",
      tool_name: "execute_bash",
      tool_args: { command: "cat /etc/fstab" },
      summary: "4 mounts: / ext4, /srv/media xfs, /home ext4, swap",
    },
    {
      id: "f2",
      tool_name: "http_get",
      tool_args: { url: "http://monitor.lan/api/volumes" },
      summary: "volumes: media 93% used, home 40% used, scratch 12% used",
    },
    { id: "f3", tool_name: "write_file", tool_args: { path: "notes/volumes.md" }, summary: "Wrote 310 bytes" },
    {
      id: "f4",
      tool_name: "http_get",
      tool_args: { url: "http://monitor.lan/api/queues" },
      summary: "queue mail: 1,900 of 2,000 slots taken; queue jobs idle",
    },
  ];

  it("asks for a share used: the result that states one answers and covers the asking words", () => {
    for (const text of ["which volume is closest to filling up?", "is the media volume nearly full?"]) {
      const r = resolveReferences(text, hosts);
      expect(r.candidates[0]?.id, text).toBe("f2");
      expect(r.candidates[0]!.reasons.join(" "), text).toMatch(/a fill \(93%\)|a fill \(\d+%\)/);
    }
    const q = resolveReferences("is the mail queue getting close to full?", hosts);
    expect(q.candidates[0]?.id).toBe("f4");
    expect(q.candidates[0]!.reasons.join(" ")).toMatch(/a fill \(1,900 of 2,000\)/);
  });

  it("a fullness question about nothing of the session stays unanswered", () => {
    expect(resolveReferences("how full should a glass of wine be poured?", hosts).candidates).toEqual([]);
    expect(resolveReferences("what happens when a hash table is nearly full?", hosts).candidates).toEqual([]);
  });
});

describe("a question about a result", () => {
  const dash: ExecutionLike[] = [
    {
      id: "q1",
      tool_name: "sql_query",
      tool_args: { query: "SELECT region, avg(latency_ms) FROM requests GROUP BY region" },
      summary: "4 rows",
    },
    {
      id: "q2",
      tool_name: "http_get",
      tool_args: { url: "https://grafana.example.net/d/overview" },
      summary: "dashboard: slowest region eu-west, p95 latency 840 ms",
    },
    { id: "q3", tool_name: "write_file", tool_args: { path: "notes/todo.md" }, summary: "Wrote 200 bytes" },
    { id: "q4", tool_name: "read_file", tool_args: { path: "src/app.ts" }, summary: "express app, 3 routes" },
  ];
  const scoreOf = (text: string, id: string) =>
    resolveReferences(text, dash).candidates.find((c) => c.id === id)?.score ?? 0;

  it("weighs words found in what came back (the summary) more than the same words listed", () => {
    expect(scoreOf("which region was the slowest for latency?", "q2")).toBeGreaterThan(
      scoreOf("region latency slowest", "q2") + 0.1,
    );
  });
});
