// The message reader: a question about a kind of thing in general ("a url", "an ounce") asks about the world, even
// when it names a tool word or a pronoun that takes the thing up again. Messages and sessions written for these tests.
import { describe, expect, it } from "vitest";
import { type ExecutionLike, resolveReferences } from "../src/index.js";
import { parseQuery } from "../src/resolution/query.js";

const session: ExecutionLike[] = [
  {
    id: "d1",
    tool_name: "fetch_url",
    tool_args: { url: "https://shop.example.org/api/cart?id=991" },
    summary: "cart page, 3 items, 212 grams shipping weight",
  },
  {
    id: "d2",
    tool_name: "read_file",
    tool_args: { path: "scales/calibrate.py" },
    summary: "tare() and weigh() in grams",
  },
  {
    id: "d3",
    tool_name: "execute_bash",
    tool_args: { command: "du -sh uploads" },
    summary: "uploads 1.4G, 3,102 files",
  },
];
const ids = (text: string) => resolveReferences(text, session).candidates.map((c) => c.id);

describe("a kind of thing in general", () => {
  it("a thing brought in with 'a' that can or should do something is the world's", () => {
    expect(parseQuery("how long can a url get before a browser gives up on it?").world).toBe(true);
    expect(ids("how long can a url get before a browser gives up on it?")).toEqual([]);
    expect(ids("should an upload folder ever hold more than a few gigs?")).toEqual([]);
  });

  it("an amount in one of a kind is a fact of the world", () => {
    expect(parseQuery("how many grams are in an ounce?").world).toBe(true);
    expect(ids("how many grams are in an ounce?")).toEqual([]);
  });

  it("the same words about the session's things are still answered", () => {
    expect(ids("how many grams did the cart page say?")).toContain("d1");
    expect(ids("how long was the url we fetched?")[0]).toBe("d1");
  });

  it("a bare plural in a passive and a limit asked are the world's", () => {
    expect(parseQuery("how often should uploads be purged?").world).toBe(true);
    expect(ids("how often should uploads be purged?")).toEqual([]);
    expect(parseQuery("how many files is too many for one folder?").world).toBe(true);
    expect(ids("how many files is too many for one folder?")).toEqual([]);
    expect(parseQuery("how often were the uploads purged?").world).toBe(false);
  });

  it("how two things of the world relate is the world's", () => {
    expect(parseQuery("is toml a superset of ini?").world).toBe(true);
    expect(ids("is mariadb a fork of mysql?")).toEqual([]);
    expect(parseQuery("is the uploads folder a copy of the old one?").world).toBe(false);
  });
});
