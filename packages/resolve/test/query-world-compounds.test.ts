// The message reader: "the command line", "a search engine", "the file system" name things of the world, not a
// command, a search or a file of the session. Messages written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery } from "../src/resolution/query.js";

describe("compounds of the world", () => {
  it("give no tool hint and point at no record", () => {
    const q = parseQuery("how do i unzip a tarball from the command line?");
    expect(q.hints.has("exec")).toBe(false);
    expect(q.referring).toBe(false);
    expect(q.definiteToolNoun).toBe(false);
    expect(parseQuery("does the search bar on a phone keep history?").hints.has("search")).toBe(false);
    expect(parseQuery("which file system suits a laptop best?").hints.has("file")).toBe(false);
  });

  it("the record nouns themselves still point and hint", () => {
    const q = parseQuery("how do i rerun the tests with more output?");
    expect(q.hints.has("test")).toBe(true);
    expect(q.definiteToolNoun).toBe(true);
    expect(parseQuery("what did the command print?").referring).toBe(true);
    expect(parseQuery("which line of the command failed?").hints.has("exec")).toBe(true);
  });
});
