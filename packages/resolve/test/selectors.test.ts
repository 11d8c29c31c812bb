import {
  DEFAULT_FETCH_MAX_CHARS,
  type Selection,
  type Selector,
  SelectionSchema,
  hasErrorCode,
} from "@artifact-refs/schema";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applySelector, parseSelectorFlags } from "../src/index.js";

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join("\n");

/** Follows `next` from the first selection until there is no more, returning every page. */
function follow(content: string, first: Selector, limit = 100_000): Selection[] {
  const pages: Selection[] = [];
  let sel: Selector | undefined = first;
  while (sel) {
    const page = applySelector(content, sel);
    pages.push(page);
    sel = page.next;
    if (pages.length > limit) throw new Error("paging does not end");
  }
  return pages;
}

function expectError(fn: () => unknown, code: string, messagePart?: RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(hasErrorCode(error, code as never), String(error)).toBe(true);
    if (messagePart) expect((error as Error).message).toMatch(messagePart);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe("headtail", () => {
  it("returns small content whole, not truncated", () => {
    const s = applySelector("a\nb\nc\n");
    expect(s).toMatchObject({ text: "a\nb\nc\n", chars: 6, total_chars: 6, total_lines: 3, truncated: false });
    expect(s.next).toBeUndefined();
    expect(SelectionSchema.parse(s)).toBeTruthy();
  });

  it("splits the default cap between head and tail and says what was left out", () => {
    const content = lines(5_000);
    const s = applySelector(content);
    expect(s.chars).toBeLessThanOrEqual(DEFAULT_FETCH_MAX_CHARS);
    expect(s.text.startsWith("line 1\nline 2\n")).toBe(true);
    expect(s.text.endsWith("line 5000")).toBe(true);
    expect(s.truncated).toBe(true);
    expect(s.omitted).toMatch(/^lines [\d,]+-[\d,]+ \([\d,]+ chars of [\d,]+ chars\)$/);
    expect(s.next).toEqual({ mode: "range", start: (s.stats?.head_lines ?? 0) + 1 });
    expect(s.text).toContain(`next: range start=${(s.stats?.head_lines ?? 0) + 1}`);
  });

  it("honours explicit head and tail line counts", () => {
    const s = applySelector(lines(100), { mode: "headtail", head: 2, tail: 3 });
    expect(s.stats).toMatchObject({ head_lines: 2, tail_lines: 3 });
    expect(s.text.split("\n")[0]).toBe("line 1");
    expect(s.text.split("\n")[1]).toBe("line 2");
    expect(s.text).toContain("lines 3-97");
    expect(s.text.endsWith("line 98\nline 99\nline 100")).toBe(true);
  });

  it("pages from the head through the rest with next and rebuilds the content exactly", () => {
    const content = `${lines(3_000, (i) => `row ${i} ${"x".repeat(i % 37)}`)}\n`;
    const [first, ...rest] = follow(content, { mode: "headtail", maxChars: 1_000 });
    const head = first!.text.slice(0, first!.text.indexOf("[…"));
    expect(head + rest.map((p) => p.text).join("")).toBe(content);
  });
});

describe("range", () => {
  it("returns the exact lines asked for", () => {
    const s = applySelector(lines(10), { mode: "range", start: 3, end: 5 });
    expect(s.text).toBe("line 3\nline 4\nline 5\n");
    expect(s.truncated).toBe(false);
    expect(s.stats).toMatchObject({ first_line: 3, last_line: 5, lines: 3 });
  });

  it("clamps an end past the content", () => {
    expect(applySelector("a\nb", { mode: "range", start: 2, end: 99 }).text).toBe("b");
  });

  it("gives the next range when the cap cuts the window", () => {
    const s = applySelector(lines(100), { mode: "range", start: 1, end: 50, maxChars: 30 });
    expect(s.text).toBe("line 1\nline 2\nline 3\nline 4\n");
    expect(s.next).toEqual({ mode: "range", start: 5, end: 50, maxChars: 30 });
    expect(s.omitted).toMatch(/^lines 5-50/);
  });

  it("continues a line longer than the cap with an offset", () => {
    const content = `short\n${"y".repeat(250)}\nend`;
    const pages = follow(content, { mode: "range", start: 1, maxChars: 100 });
    expect(pages.map((p) => p.text).join("")).toBe(content);
    expect(pages.some((p) => p.selector.mode === "range" && (p.selector.offset ?? 0) > 0)).toBe(true);
  });
});

describe("grep", () => {
  const log = lines(200, (i) => (i % 20 === 0 ? `ERROR step ${i} failed` : `info step ${i}`));

  it("prints matches with line numbers and context", () => {
    const s = applySelector(log, { mode: "grep", pattern: "ERROR", context: 1, maxMatches: 2 });
    expect(s.text).toBe(
      "19-info step 19\n20:ERROR step 20 failed\n21-info step 21\n--\n39-info step 39\n40:ERROR step 40 failed\n41-info step 41",
    );
    expect(s.stats).toMatchObject({ matches: 10, shown_matches: 2 });
    expect(s.next).toEqual({ mode: "grep", pattern: "ERROR", context: 1, maxMatches: 2, skip: 2 });
    expect(s.omitted).toMatch(/matches 3-10 of 10 \(from line 60\) not shown: maxMatches 2/);
  });

  it("is case-insensitive on request and finds nothing cleanly", () => {
    expect(applySelector(log, { mode: "grep", pattern: "error", ignoreCase: true }).stats?.matches).toBe(10);
    const none = applySelector(log, { mode: "grep", pattern: "panic" });
    expect(none).toMatchObject({ text: "", truncated: false, stats: { matches: 0 } });
  });

  it("following next visits every match exactly once", () => {
    const pages = follow(log, { mode: "grep", pattern: "ERROR", maxMatches: 3 });
    const found = pages.flatMap((p) =>
      p.text
        .split("\n")
        .filter((l) => /^\d+:/.test(l))
        .map((l) => Number(l.split(":")[0])),
    );
    expect(found).toEqual([20, 40, 60, 80, 100, 120, 140, 160, 180, 200]);
  });

  it("shows a window around the match on a very long line", () => {
    const s = applySelector(`${"a".repeat(5_000)}NEEDLE${"b".repeat(5_000)}`, { mode: "grep", pattern: "NEEDLE" });
    expect(s.text).toContain("NEEDLE");
    expect(s.chars).toBeLessThan(600);
  });

  it("runs a catastrophic pattern in linear time (RE2) and answers correctly", () => {
    const evil = `${"a".repeat(50_000)}!`;
    const s = applySelector(evil, { mode: "grep", pattern: "^(a+)+$" });
    expect(s.stats?.matches).toBe(0);
    const s2 = applySelector(`${"x".repeat(30_000)}\nxxy`, { mode: "grep", pattern: "(x+x+)+y" });
    expect(s2.stats?.matches).toBe(1);
  });

  it("stops with REGEX_TIMEOUT when a scan goes over its time limit", () => {
    expectError(
      () => applySelector(log, { mode: "grep", pattern: "ERROR" }, { regexTimeLimitMs: 0 }),
      "REGEX_TIMEOUT",
      /took longer than 0 ms/,
    );
  });
});

describe("jsonpath", () => {
  const doc = JSON.stringify({
    data: [
      { id: "c1", status: "ok" },
      { id: "c2", status: "failed" },
      { id: "c3", status: "failed" },
    ],
    has_more: true,
    "a/b": { "~x": 1 },
  });

  it("selects one value as indented JSON", () => {
    const s = applySelector(doc, { mode: "jsonpath", expr: "$.data[1]" });
    expect(JSON.parse(s.text)).toEqual({ id: "c2", status: "failed" });
    expect(s.stats).toMatchObject({ results: 1, shown: 1 });
  });

  it("selects several values as a JSON array, with filters", () => {
    const s = applySelector(doc, { mode: "jsonpath", expr: "$.data[?@.status=='failed'].id" });
    expect(JSON.parse(s.text)).toEqual(["c2", "c3"]);
  });

  it("accepts JSON Pointers (RFC 6901) including escapes", () => {
    expect(JSON.parse(applySelector(doc, { mode: "jsonpath", expr: "/data/0/id" }).text)).toBe("c1");
    expect(JSON.parse(applySelector(doc, { mode: "jsonpath", expr: "/a~1b/~0x" }).text)).toBe(1);
    expect(applySelector(doc, { mode: "jsonpath", expr: "/data/9" }).stats?.results).toBe(0);
  });

  it("pages many results with skip and a big single value through its members", () => {
    const big = JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ i, name: `item-${i}` })) });
    const pages = follow(big, { mode: "jsonpath", expr: "$.items[*].name", maxChars: 500 });
    expect(pages.flatMap((p) => JSON.parse(p.text))).toEqual(Array.from({ length: 500 }, (_, i) => `item-${i}`));
    const one = applySelector(big, { mode: "jsonpath", expr: "$.items", maxChars: 300 });
    expect(one.chars).toBeLessThanOrEqual(300);
    expect(one.next).toEqual({ mode: "jsonpath", expr: "$['items'][*]", maxChars: 300 });
  });
});

describe("caps hold for random inputs", () => {
  const content = fc
    .oneof(
      fc.string({ unit: "grapheme", maxLength: 3_000 }),
      fc.array(fc.string({ maxLength: 200 }), { maxLength: 200 }).map((a) => a.join("\n")),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 3_000 }).map((a) => a.join("\n")),
    )
    .filter((s) => !s.includes("\u0000"));
  const cap = fc.integer({ min: 1, max: 2_000 });

  it("headtail never exceeds the cap, and paging rebuilds the content", () => {
    fc.assert(
      fc.property(
        content,
        cap,
        fc.option(fc.nat(50), { nil: undefined }),
        fc.option(fc.nat(50), { nil: undefined }),
        (text, maxChars, head, tail) => {
          const sel: Selector = {
            mode: "headtail",
            maxChars,
            ...(head === undefined ? {} : { head }),
            ...(tail === undefined ? {} : { tail }),
          };
          const s = applySelector(text, sel);
          expect(s.chars).toBeLessThanOrEqual(maxChars);
          expect(s.chars).toBe(s.text.length);
          if (!s.truncated) expect(s.text).toBe(text);
          if (s.next) {
            const start = s.next.mode === "range" ? s.next.start : 1;
            const rest = follow(text, s.next);
            for (const p of rest) expect(p.chars).toBeLessThanOrEqual(maxChars);
            const joined = rest.map((p) => p.text).join("");
            expect(text.endsWith(joined)).toBe(true);
            expect(start).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("range pages never exceed the cap and rebuild the content exactly", () => {
    fc.assert(
      fc.property(content, cap, (text, maxChars) => {
        const pages = follow(text, { mode: "range", start: 1, maxChars });
        for (const p of pages) expect(p.chars).toBeLessThanOrEqual(maxChars);
        expect(pages.map((p) => p.text).join("")).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("grep never exceeds the cap and paging ends", () => {
    fc.assert(
      fc.property(
        content,
        cap,
        fc.constantFrom("a", "[0-9]+", ".", "^$", "(a|b)+c?", "\\s"),
        fc.nat(3),
        (text, maxChars, pattern, context) => {
          const pages = follow(text, { mode: "grep", pattern, context, maxChars, maxMatches: 7 });
          for (const p of pages) expect(p.chars).toBeLessThanOrEqual(maxChars);
          const shown = pages.reduce((n, p) => n + (p.stats?.shown_matches ?? 0), 0);
          expect(shown).toBe(pages[0]!.stats?.matches);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("jsonpath never exceeds the cap", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        cap,
        fc.constantFrom("$", "$..*", "$.*", "$[0]", ""),
        (value, maxChars, expr) => {
          const text = JSON.stringify(value);
          const pages = follow(text, { mode: "jsonpath", expr: expr || "/", maxChars }, 5_000);
          for (const p of pages) expect(p.chars).toBeLessThanOrEqual(maxChars);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("bad input", () => {
  it("invalid regex", () =>
    expectError(
      () => applySelector("x", { mode: "grep", pattern: "a[" }),
      "INVALID_SELECTOR",
      /not a valid regular expression/,
    ));
  it("regex features the linear engine lacks are named", () => {
    expectError(() => applySelector("x", { mode: "grep", pattern: "(\\w)\\1" }), "INVALID_SELECTOR", /backreferences/);
    expectError(() => applySelector("x", { mode: "grep", pattern: "foo(?=bar)" }), "INVALID_SELECTOR", /lookahead/);
  });
  it("empty pattern", () => expectError(() => applySelector("x", { mode: "grep", pattern: "" }), "INVALID_SELECTOR"));
  it("invalid JSONPath", () => {
    expectError(() => applySelector("{}", { mode: "jsonpath", expr: "$.[" }), "INVALID_SELECTOR", /invalid JSONPath/);
    expectError(
      () => applySelector("{}", { mode: "jsonpath", expr: "data.id" }),
      "INVALID_SELECTOR",
      /neither a JSONPath/,
    );
    expectError(() => applySelector("{}", { mode: "jsonpath", expr: "/a~2" }), "INVALID_SELECTOR", /JSON Pointer/);
  });
  it("JSONPath regex functions are refused", () =>
    expectError(
      () => applySelector("[]", { mode: "jsonpath", expr: "$[?match(@.a, '(a+)+$')]" }),
      "UNSUPPORTED",
      /match\(\) is disabled/,
    ));
  it("JSONPath on non-JSON", () =>
    expectError(() => applySelector("hello: world", { mode: "jsonpath", expr: "$.hello" }), "UNSUPPORTED", /not JSON/));
  it("range outside the content", () => {
    expectError(
      () => applySelector(lines(10), { mode: "range", start: 11 }),
      "INVALID_SELECTOR",
      /starts at line 11 but the content has 10 lines/,
    );
    expectError(() => applySelector("abc", { mode: "range", start: 1, offset: 3 }), "INVALID_SELECTOR", /offset/);
    expectError(
      () => applySelector(lines(10), { mode: "range", start: 5, end: 2 }),
      "INVALID_SELECTOR",
      /end must be >= start/,
    );
  });
  it("binary content", () => {
    expectError(
      () => applySelector(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), undefined),
      "UNSUPPORTED",
      /binary/,
    );
    expectError(() => applySelector("abc\u0000def"), "UNSUPPORTED", /binary/);
    expect(applySelector(new TextEncoder().encode("héllo")).text).toBe("héllo");
  });
  it("caps out of bounds and unknown modes", () => {
    expectError(() => applySelector("x", { mode: "headtail", maxChars: 0 }), "INVALID_SELECTOR");
    expectError(() => applySelector("x", { mode: "headtail", maxChars: 100_001 }), "INVALID_SELECTOR");
    expectError(() => applySelector("x", { mode: "sql" }), "INVALID_SELECTOR");
    expectError(() => applySelector("x", undefined, { defaultMaxChars: 0 }), "INVALID_SELECTOR");
  });
});

describe("parseSelectorFlags", () => {
  it("maps CLI flags to selectors", () => {
    expect(parseSelectorFlags({})).toEqual({ mode: "headtail" });
    expect(parseSelectorFlags({ head: "5", tail: 2, maxChars: "100" })).toEqual({
      mode: "headtail",
      head: 5,
      tail: 2,
      maxChars: 100,
    });
    expect(parseSelectorFlags({ grep: "err", context: "2" })).toEqual({ mode: "grep", pattern: "err", context: 2 });
    expect(parseSelectorFlags({ range: "10:20" })).toEqual({ mode: "range", start: 10, end: 20 });
    expect(parseSelectorFlags({ range: "10:" })).toEqual({ mode: "range", start: 10 });
    expect(parseSelectorFlags({ range: "7" })).toEqual({ mode: "range", start: 7, end: 7 });
    expect(parseSelectorFlags({ jsonpath: "$.a" })).toEqual({ mode: "jsonpath", expr: "$.a" });
  });
  it("rejects conflicting or malformed flags", () => {
    expectError(() => parseSelectorFlags({ grep: "a", range: "1:2" }), "INVALID_SELECTOR", /choose one selector/);
    expectError(() => parseSelectorFlags({ range: "a:b" }), "INVALID_SELECTOR", /--range/);
    expectError(() => parseSelectorFlags({ head: "-3" }), "INVALID_SELECTOR", /--head/);
  });
});
