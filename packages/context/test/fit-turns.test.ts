import { describe, expect, it } from "vitest";
import { fitTurns, olderOutputStub, type TurnShape } from "../src/internal.js";

interface Item {
  role: "user" | "assistant" | "tool";
  text: string;
}
const SHAPE: TurnShape<Item> = {
  sizeOf: (i) => JSON.stringify(i).length,
  toolOutput: (i) => (i.role === "tool" ? { tool: "read_log", text: i.text } : undefined),
  withToolOutput: (i, text) => ({ ...i, text }),
  startsTurn: (i) => i.role === "user",
};
const size = (items: readonly Item[]) => JSON.stringify(items).length;
const turn = (n: number, out: string): Item[] => [
  { role: "user", text: `question ${n}` },
  { role: "assistant", text: "calling read_log" },
  { role: "tool", text: out },
  { role: "assistant", text: `answer ${n}` },
];

describe("fitTurns", () => {
  it("returns the very same array when it fits", () => {
    const items = turn(1, "short");
    expect(fitTurns(items, 10_000, SHAPE)).toBe(items);
  });

  it("shortens older tool outputs first, keeping their refs, never the latest output", () => {
    const items = [
      ...turn(1, `[stored as art:${"a".repeat(12)}] ${"x".repeat(2000)}`),
      ...turn(2, `[stored as art:${"b".repeat(12)}] ${"y".repeat(2000)}`),
    ];
    const fitted = fitTurns(items, 3000, SHAPE);
    expect(fitted).toHaveLength(8);
    expect(fitted[2]!.text).toBe(olderOutputStub("read_log", items[2]!.text));
    expect(fitted[2]!.text).toContain(`art:${"a".repeat(12)}`);
    expect(fitted[6]).toBe(items[6]);
    expect(size(fitted)).toBeLessThanOrEqual(3000);
  });

  it("then leaves out the oldest whole turns, so the result starts with a user message", () => {
    const items = Array.from({ length: 50 }, (_, n) => turn(n, `out ${n} ${"z".repeat(300)}`)).flat();
    const fitted = fitTurns(items, 2000, SHAPE);
    expect(size(fitted)).toBeLessThanOrEqual(2000);
    expect(fitted[0]!.role).toBe("user");
    expect(fitted.at(-1)).toBe(items.at(-1));
    expect(fitted.at(-2)).toBe(items.at(-2)); // the latest tool output stays whole
  });

  it("fails closed when the latest turn alone is over the budget, counting what is fixed", () => {
    expect(() => fitTurns(turn(1, "x".repeat(5000)), 1000, SHAPE)).toThrow(/BUDGET_EXCEEDED|over the budget of 1000/);
    expect(() => fitTurns(turn(1, "ok"), 200, SHAPE, 150)).toThrow(/over the budget of 200/);
  });
});
