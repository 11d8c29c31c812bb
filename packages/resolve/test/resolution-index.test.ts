// The session index (src/resolution/session.ts) must not change a single answer: on generated
// sessions, the bench's sessions (2,000 records: past the posting window of 64 first + 256 latest,
// so the window is exercised) and the reference sets, resolveReferences returns exactly what a
// full scan of every record with the same scoring (test/reference/full-scan.ts) returns, and a
// session changed between calls (a record appended, replaced, removed or reordered) is seen.
import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itWithData, sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";
import { executions as benchSession } from "../bench/fixtures.js";
import { type ExecutionLike, type ResolveOptions, resolveReferences } from "../src/index.js";
import { resolveReferencesFullScan } from "./reference/full-scan.js";

/** The answer, or the error code and message when the call throws. */
function outcome(
  resolve: typeof resolveReferences,
  text: string,
  xs: readonly ExecutionLike[],
  options?: ResolveOptions,
): unknown {
  try {
    return resolve(text, xs, options);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { threw: e.code ?? "unknown", message: e.message };
  }
}

/** How many compared answers had candidates, were ambiguous, had none, threw (to check the inputs reach every path). */
const seen = { candidates: 0, ambiguous: 0, none: 0, threw: 0 };

function expectSame(text: string, xs: readonly ExecutionLike[], options?: ResolveOptions): void {
  const fast = outcome(resolveReferences, text, xs, options);
  const full = outcome(resolveReferencesFullScan, text, xs, options);
  expect(fast, `${JSON.stringify(text)} over ${xs.length} records ${JSON.stringify(options ?? {})}`).toStrictEqual(
    full,
  );
  const r = full as { candidates?: unknown[]; ambiguous?: boolean };
  if (!r.candidates) seen.threw++;
  else if (r.ambiguous) seen.ambiguous++;
  else if (r.candidates.length > 0) seen.candidates++;
  else seen.none++;
}

const WORDS = [
  "billing",
  "billng",
  "invoice",
  "invoices",
  "orders",
  "order",
  "config",
  "configuration",
  "server",
  "tests",
  "migration",
  "deploy",
  "users",
  "report",
  "payment",
  "paymnet",
  "disk",
  "storage",
  "rate",
  "limit",
  "errors",
  "readme",
  "package",
  "app",
  "schema",
  "cache",
  "queue",
  "latency",
];
const EXTS = ["ts", "json", "md", "yaml", "log", "csv", "py"];
const TOOLS = [
  "read_file",
  "mcp__fs__read_file",
  "write_file",
  "list_files",
  "grep",
  "run_tests",
  "bash",
  "execute_bash",
  "http_get",
  "fetch_url",
  "web_search",
  "sql_query",
  "custom_tool",
];

const word = fc.constantFrom(...WORDS);
const path = fc
  .tuple(fc.array(word, { minLength: 0, maxLength: 2 }), word, fc.constantFrom(...EXTS))
  .map(([dirs, base, ext]) => [...dirs, `${base}.${ext}`].join("/"));
const summary = fc
  .tuple(
    fc.array(word, { maxLength: 5 }),
    fc.constantFrom("", " HTTP 404", " status 500", " code: 429", " 3 passed, 1 failed"),
  )
  .map(([ws, tail]) => `${ws.join(" ")}${tail}`);
const args = fc.oneof(
  path.map((p) => ({ path: p })),
  fc.tuple(word, word).map(([a, b]) => ({ url: `https://api.example.com/${a}/${b}` })),
  fc.tuple(word, word).map(([a, b]) => ({ query: `SELECT * FROM ${a} WHERE ${b}_id = 1` })),
  fc
    .tuple(fc.constantFrom("pnpm test", "cat", "curl https://x.example.com/", "ls", "grep -rn", "node"), word)
    .map(([c, w]) => ({ command: `${c} ${w}` })),
  fc.tuple(word, word).map(([a, b]) => ({ pattern: `${a}|${b}`, path: "src" })),
  fc.constant({}),
);
const record = fc.record(
  {
    tool_name: fc.constantFrom(...TOOLS),
    tool_args: args,
    label: fc.array(word, { maxLength: 2 }).map((ws) => ws.join(" ")),
    summary,
    result_type: fc.constantFrom("success", "success", "error"),
    is_referenceable: fc.constantFrom(true, true, true, false),
  },
  { requiredKeys: ["tool_name", "tool_args", "summary", "result_type"] },
);
/** Sessions with ids (some missing), sometimes an explicit order, sometimes a record twice (an id twice: INVALID_INPUT on both sides). */
const session = fc
  .tuple(
    fc.array(record, { minLength: 1, maxLength: 40 }),
    fc.boolean(),
    fc.constantFrom(false, false, false, true),
    fc.nat(),
  )
  .map(([records, ordered, repeat, seed]) => {
    const xs: ExecutionLike[] = records.map((r, i) => ({
      ...r,
      ...(i % 9 === 4 ? {} : { id: `x${i + 1}` }),
      ...(ordered ? { order: (i * 7919 + seed) % 1000 } : {}),
    }));
    if (repeat && xs.length > 2) xs.push(xs[seed % xs.length]!);
    return xs;
  });

const TEMPLATES: Array<(a: string, b: string) => string> = [
  (a) => a,
  (a, b) => `${a} ${b}`,
  (a) => `what did the ${a} query return?`,
  (a) => `the last ${a} one`,
  (a) => `the ${a} file before the last one`,
  () => "summarize what I just loaded",
  () => "what went wrong?",
  () => "the last one",
  () => "the one before",
  () => "before that one",
  () => "the first one",
  () => "the second test run",
  () => "why did it return a 404?",
  (a) => `show me ${a}.ts`,
  (a, b) => `open ${a}/${b}.json`,
  (a) => `what did the tests say before my edit of ${a}?`,
  (a) => `after the ${a} migration ran, what failed?`,
  () => "the last two test runs",
  (a, b) => `compare ${a}.ts with ${b}.ts`,
  (a, b) => `compare the ${a} query and the ${b} listing`,
  () => "that error",
  () => "how full was the disk?",
  (a, b) => `the ${a} ${b} results`,
  () => "chart the data",
  (a) => `the ${a} page I fetched`,
  (a) => `grep usages of ${a}`,
  () => "write a haiku about spring",
  (a) => `explain what ${a} means in general`,
  (a) => `the ${a} log`,
  (a, b) => `rate limit on ${a} ${b}`,
];
/** Message words: the session's, and typos with several near words in a session ("invoics": invoice, invoices). */
const messageWord = fc.oneof(
  word,
  fc.constantFrom("invoce", "invoics", "configuraton", "migratoin", "paymnts", "latncy"),
);
const query = fc
  .tuple(fc.nat({ max: TEMPLATES.length - 1 }), messageWord, messageWord)
  .map(([i, a, b]) => TEMPLATES[i]!(a, b));

describe("session index: same answers as the full scan", () => {
  it("generated sessions and messages (fast-check), with and without `after`", () => {
    fc.assert(
      fc.property(session, fc.array(query, { minLength: 1, maxLength: 6 }), fc.nat(), (xs, texts, at) => {
        for (const text of texts) {
          expectSame(text, xs);
          const after = xs[at % xs.length]!;
          expectSame(text, xs, {
            after: after.id ?? after.execution_id ?? `#${(at % xs.length) + 1}`,
            limit: 1 + (at % 6),
          });
        }
      }),
      // A fixed seed: the coverage counts below are then the same on every run (random seeds saw
      // as few as 6 ambiguous answers, under the bound); the other property tests keep random seeds.
      { numRuns: 300, seed: 20261124 },
    );
    // The generated messages reach answers, ambiguity and refusals, not only empty results.
    expect(seen.candidates).toBeGreaterThan(300);
    expect(seen.ambiguous).toBeGreaterThan(10);
    expect(seen.none).toBeGreaterThan(100);
  });

  it("the bench's long sessions (200 and 2,000 records)", () => {
    const texts = [
      "summarize what I just loaded",
      "what did the billing query return?",
      "the orders3.ts file before the last one",
      "what went wrong with the last test run?",
      "write a haiku about spring",
      "the invoce report",
      "the last two test runs",
      "the second query",
      "compare orders3.ts with users2.ts",
      "the payment worker metrics",
      "what did the tests say before my edit?",
      "the 404",
      "billing invoice",
      "the last one",
      // order words alone: past the window only the first and latest records are read
      "the very first one",
      "the second one",
      "the one before the last",
    ];
    for (const n of [200, 2_000]) {
      const xs = benchSession(n);
      for (const text of texts) expectSame(text, xs);
      expectSame("the orders3.ts file before the last one", xs, { after: `e${Math.floor(n / 2)}` });
    }
  });

  it("a typo near several words of one record takes the first in the session's vocabulary order", () => {
    const xs: ExecutionLike[] = [
      {
        id: "t1",
        tool_name: "read_file",
        tool_args: { path: "docs/notes.md" },
        summary: "invoices pending",
        result_type: "success",
      },
      {
        id: "t2",
        tool_name: "read_file",
        tool_args: { path: "docs/billing.md" },
        summary: "invoice and invoices totals",
        result_type: "success",
      },
    ];
    const r = resolveReferences("the invoicse totals", xs);
    expect(r.candidates[0]!.id).toBe("t2");
    expect(r.candidates[0]!.reasons.join(" ")).toContain('"invoicse" ~ "invoices"');
    expectSame("the invoicse totals", xs);
    expectSame("the invoicse totals", [...xs].reverse());
  });

  itWithData(
    "references/dev.json",
    "every query of the reference sets and every general message, on every scenario",
    () => {
      const dir = import.meta.dirname;
      const sets = [
        sharedDataPath("references/dev.json"),
        resolvePath(dir, "fixtures/heldout.json"),
        resolvePath(dir, "fixtures/heldout-untuned.json"),
      ];
      const { messages } = JSON.parse(readFileSync(resolvePath(dir, "fixtures/general-messages.json"), "utf8")) as {
        messages: string[];
      };
      let checked = 0;
      for (const file of sets) {
        const data = JSON.parse(readFileSync(file, "utf8")) as {
          scenarios: Array<{ executions: ExecutionLike[]; queries: Array<{ text: string; after: string }> }>;
        };
        for (const s of data.scenarios) {
          for (const q of s.queries) {
            expectSame(q.text, s.executions, { after: q.after });
            expectSame(q.text, s.executions);
            checked += 2;
          }
          for (const m of messages.slice(0, 10)) expectSame(m, s.executions), checked++;
        }
      }
      expect(checked).toBeGreaterThan(200);
    },
  );
});

describe("session index: a session changed between calls is seen", () => {
  const base = (): ExecutionLike[] => [
    {
      id: "a1",
      tool_name: "read_file",
      tool_args: { path: "src/server.ts" },
      summary: "Fastify server on port 3000",
      result_type: "success",
    },
    {
      id: "a2",
      tool_name: "run_tests",
      tool_args: { command: "pnpm test" },
      summary: "12 passed",
      result_type: "success",
    },
    {
      id: "a3",
      tool_name: "read_file",
      tool_args: { path: "src/db.ts" },
      summary: "Postgres pool",
      result_type: "success",
    },
  ];

  it("a record pushed onto the same array is found by the next call (and the vocabulary grows)", () => {
    const xs = base();
    expect(resolveReferences("summarize what I just loaded", xs).candidates[0]!.id).toBe("a3");
    expect(resolveReferences("the invoices report", xs).candidates).toEqual([]);
    xs.push({
      id: "a4",
      tool_name: "read_file",
      tool_args: { path: "docs/invoices.md" },
      summary: "invoices report for May",
      result_type: "success",
    });
    expect(resolveReferences("summarize what I just loaded", xs).candidates[0]!.id).toBe("a4");
    // A typo of a word that only the new record holds: the typo list follows the vocabulary.
    expect(resolveReferences("the invoces report", xs).candidates[0]!.id).toBe("a4");
    expectSame("the invoces report", xs);
    xs.push({
      id: "a5",
      tool_name: "run_tests",
      tool_args: { command: "pnpm test invoices" },
      summary: "1 failed",
      result_type: "error",
    });
    expect(resolveReferences("what went wrong?", xs).candidates[0]!.id).toBe("a5");
    expectSame("what went wrong?", xs);
  });

  it("a record replaced, removed or reordered in place is seen", () => {
    const xs = base();
    expect(resolveReferences("the db file", xs).candidates[0]!.id).toBe("a3");
    xs[2] = {
      id: "a3",
      tool_name: "read_file",
      tool_args: { path: "src/cache.ts" },
      summary: "LRU cache",
      result_type: "success",
    };
    expect(resolveReferences("the db file", xs).candidates).toEqual([]);
    expect(resolveReferences("the cache file", xs).candidates[0]!.id).toBe("a3");
    xs.splice(0, 1);
    expect(resolveReferences("the server file", xs).candidates).toEqual([]);
    expectSame("the server file", xs);
    // An explicit order that changes between calls reorders the session.
    const ordered = base().map((x, i) => ({ ...x, order: i }));
    expect(resolveReferences("summarize what I just loaded", ordered).candidates[0]!.id).toBe("a3");
    ordered[0]!.order = 10;
    expect(resolveReferences("summarize what I just loaded", ordered).candidates[0]!.id).toBe("a1");
    expectSame("summarize what I just loaded", ordered);
  });

  it("`after` on the same array (a prefix of the indexed session), then the whole session again", () => {
    const xs = base();
    expect(resolveReferences("summarize what I just loaded", xs, { after: "a2" }).candidates[0]!.id).toBe("a1");
    expect(resolveReferences("summarize what I just loaded", xs).candidates[0]!.id).toBe("a3");
    expect(resolveReferences("the Postgres pool", xs, { after: "a2" }).candidates).toEqual([]);
    expect(resolveReferences("the Postgres pool", xs).candidates[0]!.id).toBe("a3");
    for (const after of ["a1", "a2", "a3"]) expectSame("the last one", xs, { after });
  });
});
