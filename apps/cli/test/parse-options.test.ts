import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { parseDuration, parseDurationOrZero, parseSize } from "../src/parse-options.js";

describe("duration and size flags (parse-duration, bytes-iec)", () => {
  it("reads the forms the help shows, and the library's longer ones", () => {
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("7d")).toBe(604_800_000);
    expect(parseDuration("1w")).toBe(604_800_000);
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("1h 30m")).toBe(5_400_000);
    expect(parseDuration("1.5h")).toBe(5_400_000);
    expect(parseDuration("2 hours")).toBe(7_200_000);
    expect(parseDuration("5 minutes")).toBe(300_000);
    expect(parseDurationOrZero("0")).toBe(0);
    expect(parseSize("1000")).toBe(1_000);
    expect(parseSize("512KiB")).toBe(524_288);
    expect(parseSize("2MiB")).toBe(2_097_152);
    expect(parseSize("1G")).toBe(1_073_741_824);
    expect(parseSize("1k")).toBe(1_024);
    expect(parseSize("1kb")).toBe(1_024); // JEDEC: every unit binary, as before
    expect(parseSize("1.5MiB")).toBe(1_572_864);
  });

  it("rejects what the library would read leniently, with the usage message", () => {
    for (const bad of ["30", "1h foo", "5 moments", "abc", "-1h", "1foo", " 1h", "1h ", "", "1µs", "0.1ms", "1e3s"])
      expect(() => parseDuration(bad), JSON.stringify(bad)).toThrow(InvalidArgumentError);
    expect(() => parseDuration("0s")).toThrow(/greater than zero/);
    expect(() => parseDuration("101y")).toThrow(/at most 100 years/);
    expect(() => parseDurationOrZero("nope")).toThrow(/expected a duration/);
    for (const bad of ["abc", "-1", "1x", "1Mi", "1e3", "0", "0.5", " 1k", "1 kb extra"])
      expect(() => parseSize(bad), JSON.stringify(bad)).toThrow(InvalidArgumentError);
    expect(() => parseSize("1x")).toThrow(/expected a size in bytes/);
    expect(() => parseSize("0.5")).toThrow(/positive whole number/);
  });
});
