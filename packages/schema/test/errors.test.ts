import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ArefError, ERROR_CODES, hasErrorCode, isArefError } from "@artifact-refs/schema";

describe("ArefError", () => {
  it("carries a stable code, a hint and JSON details", () => {
    const e = new ArefError("AMBIGUOUS_REF", "ambiguous", {
      hint: "use more hex",
      details: { candidates: ["a", "b"] },
    });
    expect(e).toBeInstanceOf(Error);
    expect(e.code).toBe("AMBIGUOUS_REF");
    expect(JSON.parse(JSON.stringify(e))).toEqual({
      code: "AMBIGUOUS_REF",
      message: "ambiguous",
      hint: "use more hex",
      details: { candidates: ["a", "b"] },
    });
    expect(hasErrorCode(e, "AMBIGUOUS_REF")).toBe(true);
    expect(hasErrorCode(e, "NOT_FOUND")).toBe(false);
  });

  it("is not confused with plain errors or look-alikes", () => {
    expect(isArefError(new Error("x"))).toBe(false);
    expect(isArefError({ code: "NOT_FOUND", name: "ArefError" })).toBe(false);
    expect(isArefError(null)).toBe(false);
    expect(ERROR_CODES).toContain("BUDGET_EXCEEDED");
  });

  it("is recognised across two copies of the package (brand, not instanceof)", async () => {
    // The built copy in dist/ is a different module instance from the source copy
    // the tests import: its class is a different constructor.
    const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    expect(existsSync(dist), "run the build first (turbo test depends on build)").toBe(true);
    const other = (await import(dist)) as typeof import("@artifact-refs/schema");
    const foreign = new other.ArefError("NOT_FOUND", "missing");
    expect(other.ArefError).not.toBe(ArefError);
    expect(foreign instanceof ArefError).toBe(false);
    expect(isArefError(foreign)).toBe(true);
    expect(hasErrorCode(foreign, "NOT_FOUND")).toBe(true);
  });
});
