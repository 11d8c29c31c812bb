import { applySelector } from "@artifact-refs/resolve";
import { hasErrorCode } from "@artifact-refs/schema";
import { afterAll, describe, expect, it } from "vitest";
import { SERVER_JSONPATH_WORK_BUDGET } from "../src/kit/index.js";
import { SelectionPool } from "../src/selection-pool.js";

// A generous limit: the first selection also waits for the thread to start (under tsx here).
const pool = new SelectionPool(SERVER_JSONPATH_WORK_BUDGET, { threads: 1, timeoutMs: 60_000 });
afterAll(() => pool.close());

const doc = JSON.stringify({
  items: Array.from({ length: 4_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"], a: { b: i } })),
});

/** Event-loop turns that ran while `work` was pending: 0 for work done synchronously on the loop. */
async function turnsDuring<T>(work: () => Promise<T> | T): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const before = turns;
  const value = await work();
  running = false;
  return { value, turns: turns - before };
}

describe("selection pool (issue 17 #8: expensive selections off the event loop)", () => {
  it("answers jsonpath and grep on a large text exactly as the inline selector, from a thread", async () => {
    expect(doc.length).toBeGreaterThan(64 * 1024);
    for (const selector of [
      { mode: "jsonpath", expr: "$..b" },
      { mode: "grep", pattern: "item 39[0-9]{2}", maxMatches: 50 },
    ] as const) {
      expect(pool.wants(doc, selector)).toBe(true);
      const { value, turns } = await turnsDuring(() => pool.select(doc, selector));
      expect(value).toEqual(applySelector(doc, selector, { jsonPathWorkBudget: SERVER_JSONPATH_WORK_BUDGET }));
      expect(turns).toBeGreaterThan(0); // the event loop kept turning while the thread worked
    }
    expect(pool.threads).toBe(1);
  });

  it("an inline selection holds the event loop (the contrast the pool removes)", async () => {
    const { turns } = await turnsDuring(() => applySelector(doc, { mode: "jsonpath", expr: "$..b" }));
    expect(turns).toBe(0);
  });

  it("keeps small texts and cheap modes on the event loop", () => {
    expect(pool.wants("small", { mode: "jsonpath", expr: "$" })).toBe(false);
    expect(pool.wants(doc, { mode: "range", start: 0, end: 10 } as never)).toBe(false);
    expect(pool.wants(doc, { mode: "headtail" } as never)).toBe(false);
  });

  it("a selector error raised in the thread comes back as the same ArefError", async () => {
    const deep = `${'{"a":'.repeat(7_000)}1${"}".repeat(7_000)}${" ".repeat(64 * 1024)}`;
    const error = await pool.select(deep, { mode: "jsonpath", expr: "$..a" }).catch((e: unknown) => e);
    expect(hasErrorCode(error, "INVALID_SELECTOR")).toBe(true);
    expect((error as Error).message).toMatch(/too expensive/);
  });

  it("stops a selection over its time limit (TOO_LARGE) and keeps serving", async () => {
    const slow = new SelectionPool(SERVER_JSONPATH_WORK_BUDGET, { threads: 1, timeoutMs: 1 });
    try {
      const big = doc.repeat(20);
      const error = await slow.select(big, { mode: "grep", pattern: "item", maxMatches: 1_000_000 }).catch((e) => e);
      expect(hasErrorCode(error, "TOO_LARGE")).toBe(true);
    } finally {
      await slow.close();
    }
    const again = await pool.select(doc, { mode: "jsonpath", expr: "$.items[0].id" });
    expect(again.text).toContain("0");
  });
});
