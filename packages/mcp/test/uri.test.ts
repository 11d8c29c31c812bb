import { describe, expect, it } from "vitest";
import { parseResourceUri, resourceUri } from "../src/index.js";

const HEX = "a".repeat(64);

describe("resource URIs", () => {
  it("round-trips an id and parses selector parameters", () => {
    expect(resourceUri(HEX)).toBe(`aref://sha256/${HEX}`);
    expect(parseResourceUri(`aref://sha256/${HEX}`)).toEqual({ ref: HEX });
    expect(
      parseResourceUri(`aref://sha256/${HEX}?mode=grep&pattern=a%7Cb&ignoreCase=true&context=1`).selector,
    ).toMatchObject({ mode: "grep", pattern: "a|b", ignoreCase: true, context: 1 });
    expect(parseResourceUri(`aref://sha256/${HEX.slice(0, 12)}?start=2&end=5&mode=range`)).toMatchObject({
      ref: HEX.slice(0, 12),
      selector: { mode: "range", start: 2, end: 5 },
    });
  });

  it("rejects other schemes, short or upper-case hex, and unknown parameters", () => {
    for (const bad of [
      `https://sha256/${HEX}`,
      `aref://md5/${HEX}`,
      "aref://sha256/abc",
      `aref://sha256/${HEX.toUpperCase()}`,
      "not a uri",
    ]) {
      expect(() => parseResourceUri(bad), bad).toThrow(expect.objectContaining({ code: "INVALID_HANDLE" }));
    }
    expect(() => parseResourceUri(`aref://sha256/${HEX}?nope=1`)).toThrow(
      expect.objectContaining({ code: "INVALID_SELECTOR" }),
    );
  });
});
