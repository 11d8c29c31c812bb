// Synthetic inputs for the benchmarks: 512 KiB artifacts of each kind and large sessions of
// execution records built from a fixed seed (deterministic across runs).
import type { ExecutionLike, RecallItem } from "../src/index.js";

export const KIB_512 = 512 * 1024;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A 512 KiB log: timestamps, levels, one error line in 50. */
export function bigLog(): string {
  const r = rng(1);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < KIB_512; i++) {
    const level = i % 50 === 7 ? "ERROR" : i % 13 === 0 ? "WARN" : "INFO";
    const line = `2024-06-01T02:${String(i % 60).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}Z ${level} worker-${Math.floor(r() * 16)} request ${i} took ${Math.floor(r() * 900)} ms${level === "ERROR" ? " upstream timed out (110: Connection timed out)" : ""}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`.slice(0, KIB_512);
}

/** A 512 KiB JSON document: {data: [...objects], has_more}. */
export function bigJson(): string {
  const items: unknown[] = [];
  let i = 0;
  let text = "";
  while (true) {
    items.push({
      id: `ch_${i}`,
      amount: i * 37,
      currency: "eur",
      status: i % 9 === 0 ? "failed" : "succeeded",
      customer: { id: `cus_${i % 500}`, email: `user${i}@example.com` },
    });
    i++;
    if (i % 200 === 0) {
      text = JSON.stringify({ data: items, has_more: true });
      if (text.length >= KIB_512 - 200) break;
    }
  }
  return text;
}

const TOOLS = [
  "read_file",
  "list_files",
  "grep",
  "run_tests",
  "execute_bash",
  "http_get",
  "write_file",
  "web_search",
  "sql_query",
  "fetch_url",
];
const WORDS = [
  "orders",
  "users",
  "billing",
  "invoice",
  "config",
  "server",
  "client",
  "auth",
  "cache",
  "queue",
  "worker",
  "report",
  "metrics",
  "deploy",
  "schema",
  "payment",
  "search",
  "session",
  "token",
  "upload",
];

/** `n` execution records of a long session. */
export function executions(n: number): Array<ExecutionLike & RecallItem> {
  const r = rng(42);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)]!;
  const out: Array<ExecutionLike & RecallItem> = [];
  for (let i = 0; i < n; i++) {
    const tool = pick(TOOLS);
    const a = pick(WORDS);
    const b = pick(WORDS);
    const path = `services/${a}/src/${b}${i % 7}.ts`;
    const args =
      tool === "http_get" || tool === "fetch_url"
        ? { url: `https://api.example.com/${a}/${i}` }
        : tool === "sql_query"
          ? { query: `SELECT * FROM ${a} WHERE ${b}_id = ${i}` }
          : tool === "execute_bash" || tool === "run_tests"
            ? { command: `pnpm --filter ${a} ${tool === "run_tests" ? "test" : "build"}` }
            : tool === "web_search"
              ? { query: `${a} ${b} best practices` }
              : { path };
    out.push({
      id: `e${i + 1}`,
      tool_name: tool,
      tool_args: args,
      label: Object.values(args)[0] as string,
      summary: `${tool} on ${a}/${b}: ${Math.floor(r() * 500)} lines, ${i % 11 === 0 ? "2 errors" : "ok"}`,
      result_type: i % 11 === 0 ? "error" : "success",
    });
  }
  return out;
}
