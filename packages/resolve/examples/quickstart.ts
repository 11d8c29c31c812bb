// Runnable: node --conditions=@artifact-refs/source --import tsx examples/quickstart.ts
import { applySelector, preview, recall, resolveReferences } from "@artifact-refs/resolve";

// 1. Bounded selectors: never more than the cap, and the exact selector for more.
const log = Array.from({ length: 5_000 }, (_, i) =>
  i % 500 === 7 ? `ERROR job ${i} failed: disk full` : `INFO job ${i} ok`,
).join("\n");
const grep = applySelector(log, { mode: "grep", pattern: "ERROR", context: 1, maxMatches: 2 });
console.log(grep.text);
console.log("omitted:", grep.omitted);
console.log("next:", JSON.stringify(grep.next));
const head = applySelector(log, { mode: "headtail", maxChars: 200 });
console.log(head.chars, "of", head.total_chars, "chars; next:", JSON.stringify(head.next));

// 2. Structural previews without an LLM.
console.log(preview(JSON.stringify({ data: [{ id: 1, status: "ok" }], has_more: true })).summary);
console.log(preview(log, { label: "jobs.log" }).summary);

// 3. Reference resolution over a session's executions.
const executions = [
  { id: "e1", tool_name: "list_files", tool_args: { path: "src" }, summary: "3 files: app.ts, db.ts, routes.ts" },
  { id: "e2", tool_name: "read_file", tool_args: { path: "src/db.ts" }, summary: "Postgres pool, max 10 connections" },
  {
    id: "e3",
    tool_name: "run_tests",
    tool_args: { command: "pnpm test" },
    summary: "1 failed, 20 passed",
    result_type: "error",
  },
];
console.log(JSON.stringify(resolveReferences("summarize what I just loaded", executions)));
console.log(JSON.stringify(resolveReferences("write a haiku about spring", executions)));

// 4. Top-K recall within a token budget.
const r = recall({ items: executions, query: "why did the tests fail?", budgetTokens: 60 });
console.log(
  r.items.map((i) => i.id),
  r.tokens,
  "tokens; left out:",
  r.omitted,
);
