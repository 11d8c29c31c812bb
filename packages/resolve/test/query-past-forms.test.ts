// The message reader: words that only end in "-ed" ("need", "speed", "red") and "-ed" adjectives after a determiner
// ("the shared cache") are no past action, and "i just need …" is no recent action. Messages written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery } from "../src/resolution/query.js";

describe("words in -ed that are no past action", () => {
  it('"need", "speed", "red" are no past tense', () => {
    expect(parseQuery("we need more speed on the ring road").past).toBe(false);
    expect(parseQuery("we need more speed on the ring road").referring).toBe(false);
    expect(parseQuery("why do the red lights blink twice?").past).toBe(false);
  });

  it('an "-ed" word after a determiner is an adjective', () => {
    expect(parseQuery("how does a shared cache invalidate entries?").past).toBe(false);
    expect(parseQuery("do any detailed guides cover soldering?").past).toBe(false);
    expect(parseQuery("the file we edited, what changed?").past).toBe(true);
  });

  it('"i just need …" is a request, not the latest record', () => {
    expect(parseQuery("i just need a short poem about otters").temporal).toBeUndefined();
    expect(parseQuery("we just want a name for the boat").temporal).toBeUndefined();
    expect(parseQuery("we just pushed the tag").temporal?.kind).toBe("latest");
  });

  it('a participle after "be" is a passive of no time, and "the left table" is no past', () => {
    expect(parseQuery("how often should backups be pruned?").past).toBe(false);
    expect(parseQuery("can images be made smaller?").past).toBe(false);
    expect(parseQuery("does a full join keep rows from the left table?").past).toBe(false);
    expect(parseQuery("does a full join keep rows from the left table?").aboutSession).toBe(false);
    expect(parseQuery("the backups were pruned, which ones?").past).toBe(true);
  });
});
