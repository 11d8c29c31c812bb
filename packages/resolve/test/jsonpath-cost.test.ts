import { describe, expect, it } from "vitest";
import { applySelector } from "../src/index.js";

// Found by the stress suite's JSONPath fuzzing (apps/stress): descendant segments on a deeply
// nested document blocked the event loop for seconds to hours. They are now refused up front.
const deep = (depth: number) => `${"[".repeat(depth)}{"deep": 1, "x": 1}${"]".repeat(depth)}`;

describe("JSONPath work budget", () => {
  it("refuses '..' chains whose work explodes on a deep document, with INVALID_SELECTOR and a hint", () => {
    for (const expr of ['$..*..["b"]', "$..*..*[0]", "$[?value(@..x) == 1]..*"]) {
      let error: any;
      try {
        applySelector(deep(3_000), { mode: "jsonpath", expr });
      } catch (e) {
        error = e;
      }
      expect(error?.code).toBe("INVALID_SELECTOR");
      expect(error.message).toMatch(/too expensive.*nested 3,00\d deep/);
      expect(error.hint).toMatch(/fewer '\.\.' segments/);
    }
  });

  it("refuses even one '..' on a document nested 20,000 deep", () => {
    expect(() => applySelector(deep(20_000), { mode: "jsonpath", expr: "$..x" })).toThrow(/too expensive/);
  });

  it("a value nested too deep to print is UNSUPPORTED, not a stack overflow", () => {
    for (const expr of ["$", "$[0]", "/0/0"]) {
      let error: any;
      try {
        applySelector(deep(200_000), { mode: "jsonpath", expr }); // far past any stack size
      } catch (e) {
        error = e;
      }
      expect(error?.code).toBe("UNSUPPORTED");
      expect(error.message).toMatch(/nested too deeply to print/);
    }
  });

  it("still answers '..' on ordinary documents and a single '..' on a 3,000-deep one", () => {
    const doc = JSON.stringify({ items: Array.from({ length: 2_000 }, (_, i) => ({ x: i, sub: { a: { b: i } } })) });
    expect(applySelector(doc, { mode: "jsonpath", expr: "$..a..b", maxChars: 100_000 }).stats).toMatchObject({
      results: 2_000,
    });
    expect(applySelector(deep(3_000), { mode: "jsonpath", expr: "$..x" }).stats).toMatchObject({ results: 1 });
    expect(applySelector(doc, { mode: "jsonpath", expr: "/items/3/x" }).text).toBe("3");
  });
});
