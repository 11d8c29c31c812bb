// A time of day in a message: which forms are read as one, which numbers are something else. Messages written for
// these tests.
import { describe, expect, it } from "vitest";
import { EXACT_WINDOW, HOUR_WINDOW, ROUGH_WINDOW, parseTimeOfDay } from "../src/resolution/time-of-day.js";

const read = (text: string) => parseTimeOfDay(text.toLowerCase());
const minutes = (text: string) => read(text)?.minutes;
const hm = (h: number, m: number) => h * 60 + m;

describe("a time of day in a message", () => {
  it("reads hours and minutes with a colon, 24-hour and 12-hour", () => {
    expect(minutes("show me the output from 16:25 again")).toEqual([hm(16, 25)]);
    expect(minutes("what happened at 00:07")).toEqual([hm(0, 7)]);
    // Without am/pm a 12-hour time has two readings.
    expect(minutes("the listing at 6:05")).toEqual([hm(6, 5), hm(18, 5)]);
    expect(minutes("the listing at 12:30")).toEqual([hm(0, 30), hm(12, 30)]);
    // A leading zero writes a 24-hour time.
    expect(minutes("the listing at 06:05")).toEqual([hm(6, 5)]);
    expect(minutes("the job at 6:05pm")).toEqual([hm(18, 5)]);
    expect(minutes("the job at 6:05 a.m.")).toEqual([hm(6, 5)]);
    expect(minutes("the query at 12:10am")).toEqual([hm(0, 10)]);
    expect(minutes("the ping at 11:48:09")).toEqual([hm(11, 48), hm(23, 48)]);
    expect(minutes("the fetch at 6:40 this evening")).toEqual([hm(18, 40)]);
  });

  it("reads a dot between hour and minutes only after a word that says a time", () => {
    expect(minutes("the copy you did at 6.35")).toEqual([hm(6, 35), hm(18, 35)]);
    expect(minutes("what did the check around 14.50 print")).toEqual([hm(14, 50)]);
    expect(read("we moved to 6.35 of the library")).toBeUndefined();
    expect(read("is 14.50 the latest release")).toBeUndefined();
  });

  it("reads named times and parts of an hour", () => {
    expect(minutes("the backup at noon")).toEqual([720]);
    expect(minutes("the backup around midnight")).toEqual([0]);
    expect(minutes("the scan at half past 4")).toEqual([hm(4, 30), hm(16, 30)]);
    expect(minutes("the scan at quarter past eleven")).toEqual([hm(11, 15), hm(23, 15)]);
    expect(minutes("the scan at a quarter to three")).toEqual([hm(2, 45), hm(14, 45)]);
    expect(minutes("the scan at ten past 6")).toEqual([hm(6, 10), hm(18, 10)]);
    expect(minutes("the scan at quarter to 1")).toEqual([hm(0, 45), hm(12, 45)]);
  });

  it("reads an hour with am/pm or o'clock", () => {
    expect(minutes("what did the sync at 4pm say")).toEqual([hm(16, 0)]);
    expect(minutes("what did the sync at 4 p.m. say")).toEqual([hm(16, 0)]);
    expect(minutes("the sync at 7 am")).toEqual([hm(7, 0)]);
    expect(minutes("the sync at six o'clock")).toEqual([hm(6, 0), hm(18, 0)]);
    expect(minutes("the sync at 9 in the evening")).toEqual([hm(21, 0)]);
  });

  it("sets the window by how the time is said", () => {
    expect(read("the diff at 10:12")?.window).toBe(EXACT_WINDOW);
    expect(read("the diff around 10:12")?.window).toBe(ROUGH_WINDOW);
    expect(read("the diff at like 10:12")?.window).toBe(ROUGH_WINDOW);
    expect(read("the diff ~10:12")?.window).toBe(ROUGH_WINDOW);
    expect(read("the diff at about 10:12")?.window).toBe(ROUGH_WINDOW);
    expect(read("the diff at 10pm")?.window).toBe(HOUR_WINDOW);
  });

  it("gives the phrase and its words (the order, not content)", () => {
    expect(read("what did the diff around 10:12 show")).toMatchObject({
      phrase: "around 10:12",
      words: ["around", "10", "12"],
    });
    expect(read("the diff at 6.35")?.words).toContain("6.35");
    expect(read("the diff at 6:05pm")?.words).toContain("05pm");
  });

  it("reads a bare hour only where it can be nothing else", () => {
    expect(minutes("what did you run at 3?")).toEqual([hm(3, 0), hm(15, 0)]);
    expect(minutes("and around 3?")).toEqual([hm(3, 0), hm(15, 0)]);
    expect(read("what did you run at 3?")?.window).toBe(HOUR_WINDOW);
    expect(read("the counter stopped at 3")).toBeUndefined();
    expect(read("it was stuck at 3")).toBeUndefined();
    expect(read("at 3 retries it gives up")).toBeUndefined();
    expect(read("what about 3?")).toBeUndefined();
    expect(read("i'd like 3, please")).toBeUndefined();
    expect(read("we went from 3 to 4 workers")).toBeUndefined();
  });

  it("does not read versions, ratios, durations, scores, prices or addresses as a time", () => {
    for (const text of [
      "the upgrade to 6.35",
      "node 16.14 is installed",
      "is v2.10 out",
      "at 6.35.2 it broke",
      "a 1:4 ratio of water",
      "the 16:9 screenshots",
      "a 10:30 ratio",
      "the encode took 3:20",
      "it finished in 4:45",
      "the clip is 2:35 long",
      "3:20 min per km",
      "the score was 21:15",
      "they won 14:12",
      "priced at 2.50",
      "at 2.50 eur each",
      "connect to 10.0.0.12:22",
      "the service on localhost:8080",
      "25:99 is what the clock showed",
      "at 7:61",
    ])
      expect(read(text), text).toBeUndefined();
  });

  it("does not read a time inside quoted or back-quoted text", () => {
    expect(read("run `sleep 10:30` for me")).toBeUndefined();
    expect(read('translate "see you at 10:30" to french')).toBeUndefined();
    expect(read("the note says 'meet at 10:30'")).toBeUndefined();
    // The quoted time aside, one said outside counts.
    expect(minutes("the `date` you ran at 13:02")).toEqual([hm(13, 2)]);
  });

  it("does not read a time after a word of range (not a time the message is at)", () => {
    expect(read("anything after 16:25?")).toBeUndefined();
    expect(read("between 16:25 and 16:40")).toBeUndefined();
  });
});

describe("parts of an hour said with a number word", () => {
  it("reads 'to' and 'after' after a word that says a time only", () => {
    expect(minutes("the scan at ten to 6")).toEqual([hm(5, 50), hm(17, 50)]);
    expect(read("we scaled from ten to twelve replicas")).toBeUndefined();
    expect(read("it went from five to seven")).toBeUndefined();
  });
});
