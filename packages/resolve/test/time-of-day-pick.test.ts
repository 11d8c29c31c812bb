// The record a time of day picks, read straight from the records' timestamps (no wording involved). Records written
// for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, indexExecution } from "../src/resolution/executions.js";
import { parseQuery } from "../src/resolution/query.js";
import { unscored } from "../src/resolution/score.js";
import { pickTimeOfDay, wallClock } from "../src/resolution/time-of-day-pick.js";
import { parseTimeOfDay } from "../src/resolution/time-of-day.js";

const records = (stamps: Array<string | undefined>) => {
  const query = parseQuery("the one at noon");
  return stamps.map((timestamp, i) => {
    const e: ExecutionLike = { id: `r${i + 1}`, tool_name: "execute_bash", summary: `step ${i + 1}`, timestamp };
    return unscored(query, indexExecution(e, i));
  });
};
const pick = (stamps: Array<string | undefined>, asked: string, now?: Date) =>
  pickTimeOfDay(records(stamps), parseTimeOfDay(asked)!, now);

describe("the clock of a timestamp", () => {
  it("is read as written, in its own offset", () => {
    expect(wallClock("2026-05-02T18:41:00Z")?.minute).toBe(18 * 60 + 41);
    expect(wallClock("2026-05-02T18:41:00+01:00")?.minute).toBe(18 * 60 + 41);
    expect(wallClock("2026-05-02T18:41:07.250-07:00")).toMatchObject({ minute: 18 * 60 + 41, second: 7 });
  });

  it("is nothing for a timestamp that names no time", () => {
    for (const bad of ["yesterday", "2026-05-02", "2026-05-02T25:99:00Z", "2026-02-30T10:00:00Z", "", undefined, 12])
      expect(wallClock(bad), String(bad)).toBeUndefined();
  });
});

describe("the record a time of day picks", () => {
  const day = (hm: string, d = "05") => `2026-05-${d}T${hm}:00Z`;

  it("is the nearest within the window", () => {
    expect(pick([day("10:02"), day("10:09"), day("10:15")], "at 10:10")?.s.x.id).toBe("r2");
    expect(pick([day("10:02"), day("10:09"), day("10:15")], "at 10:10")?.why).toBe('ran at 10:09 (asked "at 10:10")');
  });

  it("is nothing beyond the window: tight for an exact time, wider for a rough one", () => {
    const stamps = [day("10:02"), day("10:30")];
    expect(pick(stamps, "at 10:14")).toBeUndefined();
    expect(pick(stamps, "around 10:14")?.s.x.id).toBe("r1");
  });

  it("reads a 12-hour time either way, on the later half of the day when both have a record", () => {
    expect(pick([day("19:18"), day("19:31")], "at 7:20")?.s.x.id).toBe("r1");
    expect(pick([day("07:21"), day("19:40")], "at 7:20")?.s.x.id).toBe("r1");
    expect(pick([day("07:21"), day("19:19")], "at 7:20")?.s.x.id).toBe("r2");
  });

  it("takes the later of two records equally near", () => {
    expect(pick([day("10:08"), day("10:12")], "at 10:10")?.s.x.id).toBe("r2");
  });

  it("takes the most recent day the time occurs on, across midnight too", () => {
    expect(pick([day("09:00", "04"), day("09:01", "05"), day("12:00", "05")], "at 9:00")?.s.x.id).toBe("r2");
    expect(pick([day("23:50", "04"), day("23:58", "04"), day("00:06", "05")], "around midnight")?.s.x.id).toBe("r2");
    expect(pick([day("23:50", "04"), day("00:01", "05"), day("00:30", "05")], "at 23:52")?.s.x.id).toBe("r1");
  });

  it("flags the records that ran in the same minute", () => {
    const got = pick(["2026-05-05T10:10:05Z", "2026-05-05T10:10:40Z", day("10:14")], "at 10:10");
    expect(got?.same.map((s) => s.x.id)).toEqual(["r1", "r2"]);
  });

  it("picks nothing without a readable timestamp", () => {
    expect(pick([undefined, undefined], "at 10:10")).toBeUndefined();
    expect(pick(["not a time", "2026-05-05T31:10:00Z"], "at 10:10")).toBeUndefined();
    expect(pick(["not a time", day("10:11")], "at 10:10")?.s.x.id).toBe("r2");
  });

  it("leaves out a record later than now", () => {
    const now = new Date("2026-05-05T10:12:00Z");
    expect(pick([day("10:08"), day("10:11"), day("10:13")], "at 10:12", now)?.s.x.id).toBe("r2");
    expect(pick([day("10:13")], "at 10:12", now)).toBeUndefined();
  });
});
