import { describe, expect, it } from "vitest";
import { type ArefError, isArefError, parseRef, parseSessionId, toHandle, toShortRef } from "@artifact-refs/schema";

const ID = "a".repeat(8) + "0123456789abcdef".repeat(3) + "b".repeat(8);

describe("parseRef", () => {
  it("accepts a handle, a full id, a short ref and a bare prefix", () => {
    expect(parseRef(`aref:v1:sha256:${ID}`)).toEqual({ kind: "id", id: ID, input: `aref:v1:sha256:${ID}` });
    expect(parseRef(ID)).toMatchObject({ kind: "id", id: ID });
    expect(parseRef(`art:${ID.slice(0, 12)}`)).toMatchObject({ kind: "prefix", prefix: ID.slice(0, 12) });
    expect(parseRef(`art:${ID}`)).toMatchObject({ kind: "id", id: ID });
    expect(parseRef(ID.slice(0, 20))).toMatchObject({ kind: "prefix", prefix: ID.slice(0, 20) });
  });

  const bad: Array<[string, unknown]> = [
    ["empty", ""],
    ["too short", "art:abc123"],
    ["11 hex", `art:${ID.slice(0, 11)}`],
    ["uppercase", `art:${ID.slice(0, 12).toUpperCase()}`],
    ["uppercase handle", `aref:v1:sha256:${ID.toUpperCase()}`],
    ["non-hex", "art:zzzzzzzzzzzzzz"],
    ["path traversal", "../../etc/passwd"],
    ["traversal in short ref", "art:../aaaaaaaaaaaa"],
    ["NUL", `art:${ID.slice(0, 12)}\u0000`],
    ["leading whitespace", ` ${ID}`],
    ["trailing newline", `${ID}\n`],
    ["65 hex", `${ID}a`],
    ["handle with 63 hex", `aref:v1:sha256:${ID.slice(1)}`],
    ["unknown scheme", `sha1:${ID}`],
    ["non-ASCII", `art:${ID.slice(0, 11)}é`],
    ["not a string", 42],
    ["very long", "a".repeat(10_000)],
  ];
  for (const [why, input] of bad) {
    it(`rejects ${why} with INVALID_HANDLE`, () => {
      let caught: unknown;
      try {
        parseRef(input);
      } catch (e) {
        caught = e;
      }
      expect(isArefError(caught)).toBe(true);
      expect((caught as ArefError).code).toBe("INVALID_HANDLE");
      expect((caught as ArefError).hint).toMatch(/aref:v1:sha256/);
    });
  }
});

describe("handles and short refs", () => {
  it("toHandle and toShortRef refuse anything but a full id", () => {
    for (const bad of [
      "",
      "abc",
      ID.toUpperCase(),
      `${ID}0`,
      `art:${ID.slice(0, 12)}`,
      `aref:v1:sha256:${ID}`,
      42 as never,
    ]) {
      expect(() => toHandle(bad)).toThrow(expect.objectContaining({ code: "INVALID_HANDLE" }));
      expect(() => toShortRef(bad)).toThrow(expect.objectContaining({ code: "INVALID_HANDLE" }));
    }
  });

  it("round-trips through toHandle and toShortRef", () => {
    expect(parseRef(toHandle(ID))).toMatchObject({ kind: "id", id: ID });
    expect(toShortRef(ID)).toBe(`art:${ID.slice(0, 12)}`);
    expect(toShortRef(ID, 3)).toBe(`art:${ID.slice(0, 12)}`);
    expect(toShortRef(ID, 20)).toBe(`art:${ID.slice(0, 20)}`);
  });
});

describe("session ids", () => {
  it("accepts safe ids and rejects path-like ones", () => {
    expect(parseSessionId("sess_123:a-b.c")).toBe("sess_123:a-b.c");
    for (const bad of ["", ".", "..", "a/b", "a\\b", "x".repeat(129), "a b", "a\u0000"]) {
      expect(() => parseSessionId(bad)).toThrow(/invalid session id/);
    }
  });
});
