import { hasErrorCode } from "@artifact-refs/schema";
import { errorOf } from "@artifact-refs/tooling/testing/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RecallIndex, type RecallItem, applySelector, recall, summarize } from "../src/index.js";

const items: RecallItem[] = [
  {
    id: "e1",
    tool_name: "read_file",
    tool_args: { path: "src/app.ts" },
    label: "src/app.ts",
    summary: "Express app: routes for /orders and /users",
  },
  {
    id: "e2",
    tool_name: "run_tests",
    tool_args: { command: "pnpm test" },
    summary: "46 passed, 1 failed: returns 404 for unknown id",
    result_type: "error",
  },
  {
    id: "e3",
    tool_name: "sql_query",
    tool_args: { query: "SELECT region, SUM(amount) FROM sales GROUP BY region" },
    summary: "5 rows: EMEA 1.92M, NA 1.71M",
  },
  {
    id: "e4",
    tool_name: "read_file",
    tool_args: { path: "README.md" },
    label: "README.md",
    summary: "Project overview and setup",
  },
  { id: "e5", tool_name: "list_files", tool_args: { path: "src" }, label: "src", summary: "12 entries" },
];
const chars4 = (t: string) => Math.ceil(t.length / 4);

describe("recall", () => {
  it("puts explicit references first, in the order given, then relevance, then recency", () => {
    const r = recall({
      items,
      query: "which region had the most sales?",
      explicitIds: ["e4", "e1"],
      budgetTokens: 10_000,
      countTokens: chars4,
    });
    expect(r.items.map((i) => i.id)).toEqual(["e4", "e1", "e3", "e5", "e2"]);
    expect(r.items[2]!.reasons.join(" ")).toMatch(/relevant: .*region/);
    expect(r.items[0]!.reasons[0]).toBe("referred to explicitly (#1)");
  });

  it("without a message, the most recent come first", () => {
    const r = recall({ items, budgetTokens: 10_000, countTokens: chars4 });
    expect(r.items.map((i) => i.id)).toEqual(["e5", "e4", "e3", "e2", "e1"]);
  });

  it("keeps within the token budget and says what it left out", () => {
    const r = recall({ items, query: "sales region", budgetTokens: 30, countTokens: chars4 });
    expect(r.tokens).toBeLessThanOrEqual(30);
    expect(r.items.reduce((n, i) => n + i.tokens, 0)).toBe(r.tokens);
    expect(r.omitted.length).toBe(items.length - r.items.length);
    expect(r.omitted.every((o) => o.reason === "budget")).toBe(true);
    expect(r.text).toBe(r.items.map((i) => i.text).join("\n"));
  });

  it("caps the number of items (top-K)", () => {
    const r = recall({ items, budgetTokens: 10_000, maxItems: 2, countTokens: chars4 });
    expect(r.items).toHaveLength(2);
    expect(r.omitted.filter((o) => o.reason === "max_items")).toHaveLength(3);
  });

  it("counts with the budget package's tokenizer by default", () => {
    const r = recall({ items, budgetTokens: 10_000 });
    expect(r.items[0]!.tokens).toBeGreaterThan(3);
    expect(r.items[0]!.tokens).toBeLessThan(r.items[0]!.text.length);
  });

  it("is deterministic and never exceeds the budget for random sessions", () => {
    const item = fc.record({
      summary: fc.string({ maxLength: 120 }),
      label: fc.string({ maxLength: 30 }),
      tool_name: fc.constantFrom("read_file", "run_tests", "http_get"),
    });
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 60 }),
        fc.string({ maxLength: 40 }),
        fc.nat(400),
        fc.nat(12),
        (raw, query, budgetTokens, maxItems) => {
          const list = raw.map((r, i) => ({ ...r, id: `x${i}` }));
          const explicitIds = list.filter((_, i) => i % 7 === 3).map((x) => x.id);
          const a = recall({ items: list, query, explicitIds, budgetTokens, maxItems, countTokens: chars4 });
          const b = recall({ items: [...list], query, explicitIds, budgetTokens, maxItems, countTokens: chars4 });
          expect(b).toEqual(a);
          expect(a.tokens).toBeLessThanOrEqual(budgetTokens);
          expect(a.items.length).toBeLessThanOrEqual(maxItems);
          expect(new Set(a.items.map((i) => i.id)).size).toBe(a.items.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("an index answers like the one-shot function, and grows incrementally", () => {
    const index = new RecallIndex();
    index.addAll(items.slice(0, 3));
    index.add(items[3]!);
    index.add(items[4]!);
    expect(index.size).toBe(5);
    const opts = { query: "README setup", budgetTokens: 500, countTokens: chars4 };
    expect(index.recall(opts)).toEqual(recall({ items, ...opts }));
  });

  it("rejects bad input", () => {
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return hasErrorCode(e, "INVALID_INPUT")
          ? "INVALID_INPUT"
          : hasErrorCode(e, "CONFLICT")
            ? "CONFLICT"
            : String(e);
      }
      return "no error";
    };
    expect(codeOf(() => recall({ items, budgetTokens: -1 }))).toBe("INVALID_INPUT");
    expect(codeOf(() => recall({ items, budgetTokens: 1.5 }))).toBe("INVALID_INPUT");
    expect(codeOf(() => recall({ items, budgetTokens: 10, maxItems: -2 }))).toBe("INVALID_INPUT");
    expect(codeOf(() => recall({ items: "nope" as never, budgetTokens: 10 }))).toBe("INVALID_INPUT");
    expect(codeOf(() => new RecallIndex().addAll([items[0]!, items[0]!]))).toBe("CONFLICT");
  });
});

describe("bad input is INVALID_INPUT, never a TypeError", () => {
  it("recall items that are not objects, selector content that is not text or bytes, summarize without an input", () => {
    const code = (fn: () => unknown) => {
      const error = errorOf(fn);
      return `${error.code}: ${error.message}`;
    };
    expect(code(() => recall({ items: [null] as never, budgetTokens: 100 }))).toMatch(
      /^INVALID_INPUT: recall item #1 is not an object/,
    );
    expect(code(() => new RecallIndex().addAll([{ id: "a", tool_name: "t" }, 5 as never]))).toMatch(
      /^INVALID_INPUT: recall item #2/,
    );
    for (const content of [null, undefined, 42, {}]) {
      expect(
        code(() => applySelector(content as never, { mode: "headtail" })),
        String(content),
      ).toMatch(/^INVALID_INPUT: content must be a string or bytes/);
    }
    expect(code(() => summarize(null as never))).toMatch(/^INVALID_INPUT: summarize needs/);
  });
});
