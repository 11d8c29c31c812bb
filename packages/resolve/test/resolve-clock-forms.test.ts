// Clock phrases written the way people type them: "half an hour back", "40m ago", "~2h earlier", "45ish mins ago".
// Messages and records written for these tests.
import { describe, expect, it } from "vitest";
import { parseQuery, resolveReferences } from "../src/internal.js";
import { parseClock } from "../src/resolution/query.js";

const minutes = (text: string) => {
  const op = parseClock(text);
  return op?.kind === "clock" ? op.agoMs / 60_000 : undefined;
};

// Three kiln readings, 90, 60 and 30 minutes before the last record.
const at = (min: number) => new Date(Date.UTC(2026, 2, 4, 12, 0) + min * 60_000).toISOString();
const session = [
  {
    id: "k1",
    tool_name: "http_get",
    tool_args: { url: "http://kiln.lan/temp" },
    summary: "kiln 412 C",
    timestamp: at(0),
  },
  {
    id: "k2",
    tool_name: "http_get",
    tool_args: { url: "http://kiln.lan/temp" },
    summary: "kiln 655 C",
    timestamp: at(30),
  },
  {
    id: "k3",
    tool_name: "http_get",
    tool_args: { url: "http://kiln.lan/temp" },
    summary: "kiln 870 C",
    timestamp: at(60),
  },
  {
    id: "n1",
    tool_name: "read_file",
    tool_args: { path: "glaze.txt" },
    summary: "cone 6 glaze notes",
    timestamp: at(90),
  },
];

describe("clock phrases said otherwise", () => {
  it("reads parts of an hour with 'back' or 'earlier' as with 'ago'", () => {
    expect(minutes("the reading from half an hour back")).toBe(30);
    expect(minutes("that one from ~half an hour earlier")).toBe(30);
    expect(minutes("an hour and a half ago")).toBe(90);
    expect(minutes("a quarter of an hour ago")).toBe(15);
  });

  it("reads a unit written right after its number", () => {
    expect(minutes("the kiln reading 40m ago")).toBe(40);
    expect(minutes("what did it say ~2h earlier")).toBe(120);
    expect(minutes("45ish mins ago")).toBe(45);
    expect(minutes("forty minutes back")).toBe(40);
  });

  it("a one-letter unit apart from its number, or a span before a thing, is no clock", () => {
    expect(parseClock("take two steps, 5 m back from the wall")).toBeUndefined();
    expect(parseClock("how many days before expiry should I renew?")).toBeUndefined();
  });

  it("the words of the clock phrase are no content words", () => {
    expect(parseQuery("the kiln reading from half an hour back").terms.map((t) => t.word)).not.toContain("half");
  });

  it("picks by the timestamps with those phrases", () => {
    expect(resolveReferences("the kiln temp from half an hour back", session).candidates[0]?.id).toBe("k3");
    expect(resolveReferences("the kiln temp 90m ago", session).candidates[0]?.id).toBe("k1");
  });
});
