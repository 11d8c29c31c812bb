// The follow-`next` check every selector surface runs (artifacts_get tool, MCP, HTTP, CLI, web UI):
// fetch a first part, follow the answer's `next` selector until there is none, and check that the
// parts rebuild the content (headtail, range, a 300 KB single line) or the full match list (grep,
// JSONPath). Each surface passes a `fetch` that goes through its own wire (arguments, query string,
// flags, a button click); the expectations are computed here from the content, not from an answer.
import { expect, it } from "vitest";

/** A selector as a surface sends and receives it (plain JSON). */
export type WireSelector = { mode: string } & Record<string, unknown>;

/** One answer of a surface: the part's text and the selector for the next part, if any. */
export interface FetchedPart {
  text: string;
  next?: WireSelector | undefined;
}

export type FetchPart = (selector: WireSelector) => Promise<FetchedPart>;

/** A 2,000-line log (~110 KB) with a FAIL line every 7th line. */
export function followLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 2_000; i++) {
    lines.push(
      i % 7 === 0
        ? `FAIL test/case-${i}.test.ts > computes ${i}: expected ${i} got ${i + 1}`
        : `ok ${i} test/case-${i}.test.ts > computes ${i} (${(i * 7) % 13} ms) ${"·".repeat(i % 40)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** One 300 KB line (no newline anywhere), with multi-byte characters so that cuts must respect them. */
export function followLongLine(): string {
  let s = "";
  for (let i = 0; s.length < 300_000; i++) s += `{"i":${i},"v":"é✓${"x".repeat(i % 50)}"},`;
  return s.slice(0, 300_000);
}

/** A JSON document with 1,500 items (~90 KB): `$.items[*]` pages with `skip`. */
export function followJson(): string {
  const items = Array.from({ length: 1_500 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}`, ok: i % 3 !== 0 }));
  return JSON.stringify({ name: "follow", items }, null, 2);
}

/** The selectors the check starts from, per case. */
export const FOLLOW_GREP = { mode: "grep", pattern: "^FAIL" } as const;
export const FOLLOW_JSONPATH = { mode: "jsonpath", expr: "$.items[*]" } as const;

/** Follows `next` from `first` to the end; fails on a repeated selector (no progress) or more than `limit` parts. */
export async function followNext(fetch: FetchPart, first: WireSelector, limit = 200): Promise<FetchedPart[]> {
  const parts: FetchedPart[] = [];
  const seen = new Set<string>();
  let selector: WireSelector | undefined = first;
  while (selector !== undefined) {
    const key = JSON.stringify(selector);
    expect(seen.has(key), `selector repeated: ${key}`).toBe(false);
    seen.add(key);
    const part = await fetch(selector);
    parts.push(part);
    expect(parts.length, "too many parts").toBeLessThanOrEqual(limit);
    selector = part.next;
  }
  return parts;
}

/**
 * headtail, then the `range` pages its `next` starts: the first part's head (the text before the
 * marker) followed by every later part equals the content exactly.
 */
export function expectHeadTailRebuilds(parts: FetchedPart[], content: string): void {
  expect(parts.length).toBeGreaterThan(1);
  const [first, ...rest] = parts;
  const next = first!.next!;
  expect(next.mode).toBe("range");
  const lines = content.split(/(?<=\n)/);
  const head =
    typeof next.offset === "number"
      ? content.slice(0, next.offset)
      : lines.slice(0, (next.start as number) - 1).join("");
  expect(first!.text.startsWith(head)).toBe(true);
  expect(head + rest.map((p) => p.text).join("")).toBe(content);
}

/** range from line 1: the parts concatenated equal the content exactly. */
export function expectRangeRebuilds(parts: FetchedPart[], content: string): void {
  expect(parts.length).toBeGreaterThan(1);
  expect(parts.map((p) => p.text).join("")).toBe(content);
}

/** grep ^FAIL: every match line ("N:text") of every part, in order, equals the full match list. */
export function expectGrepComplete(parts: FetchedPart[], content: string): void {
  expect(parts.length).toBeGreaterThan(1);
  const expected = content
    .split("\n")
    .map((line, i) => (/^FAIL/.test(line) ? `${i + 1}:${line}` : undefined))
    .filter((l): l is string => l !== undefined);
  const got = parts.flatMap((p) => p.text.split("\n").filter((l) => /^\d+:/.test(l)));
  expect(got).toEqual(expected);
}

/** JSONPath $.items[*]: the JSON arrays of the parts concatenated equal the document's items. */
export function expectJsonPathComplete(parts: FetchedPart[], content: string): void {
  expect(parts.length).toBeGreaterThan(1);
  const got = parts.flatMap((p) => JSON.parse(p.text) as unknown[]);
  expect(got).toEqual((JSON.parse(content) as { items: unknown[] }).items);
}

/** One follow-`next` case: the content to store, the first selector, and the check of the parts. */
export interface FollowCase {
  name: string;
  content: string;
  mime: string;
  first: WireSelector;
  check(parts: FetchedPart[], content: string): void;
}

/** The cases every surface runs: headtail and range over a log and over a 300 KB single line, grep and JSONPath paging. */
export function followCases(): FollowCase[] {
  const log = followLog();
  const line = followLongLine();
  const json = followJson();
  return [
    {
      name: "headtail (log)",
      content: log,
      mime: "text/plain",
      first: { mode: "headtail" },
      check: expectHeadTailRebuilds,
    },
    {
      name: "range (log)",
      content: log,
      mime: "text/plain",
      first: { mode: "range", start: 1 },
      check: expectRangeRebuilds,
    },
    {
      name: "headtail (300 KB single line)",
      content: line,
      mime: "text/plain",
      first: { mode: "headtail" },
      check: expectHeadTailRebuilds,
    },
    {
      name: "range (300 KB single line)",
      content: line,
      mime: "text/plain",
      first: { mode: "range", start: 1 },
      check: expectRangeRebuilds,
    },
    { name: "grep paging", content: log, mime: "text/plain", first: { ...FOLLOW_GREP }, check: expectGrepComplete },
    {
      name: "jsonpath paging",
      content: json,
      mime: "application/json",
      first: { ...FOLLOW_JSONPATH },
      check: expectJsonPathComplete,
    },
  ];
}

/**
 * One plain-text artifacts_get answer as a model reads it (the selected text, a blank line, then
 * `[artifacts_get: N chars of …]` and `next part: call artifacts_get with {"ref":…,"selector":…}`),
 * read back: the text is its first N chars, the next selector is the one the note names. Fails if
 * the answer is JSON (what the model reads must not be escaped JSON).
 */
export function readPlainAnswer(answer: string, ref: string): FetchedPart {
  expect(() => JSON.parse(answer), "the answer is JSON, not plain text").toThrow();
  const chars = /^\[artifacts_get: (\d+) chars of /m.exec(answer);
  expect(chars, answer.slice(-500)).not.toBeNull();
  const text = answer.slice(0, Number(chars![1]));
  const call = /^next part: call artifacts_get with (\{.*\})$/m.exec(answer.slice(text.length));
  if (call === null) return { text };
  const args = JSON.parse(call[1]!) as { ref: string; selector: WireSelector };
  expect(args.ref).toBe(ref);
  return { text, next: args.selector };
}

/**
 * The plain-text follow-`next` cases of an SDK adapter, one `it` each: `put` stores a case's
 * content, `ask(ref, selector)` calls artifacts_get through the adapter and returns the text the
 * model reads; the calls each answer names are followed to the end and must rebuild the content.
 */
export function itFollowsPlainAnswers(
  put: (content: string, mime: string) => Promise<{ shortRef: string }>,
  ask: (ref: string, selector: WireSelector) => Promise<string>,
): void {
  for (const c of followCases()) {
    it(`follows the next call it names to the end: ${c.name}`, async () => {
      const { shortRef } = await put(c.content, c.mime);
      const fetch: FetchPart = async (selector) => readPlainAnswer(await ask(shortRef, selector), shortRef);
      c.check(await followNext(fetch, c.first), c.content);
    });
  }
}

/** An error answer as a model reads it: `CODE: message`, a hint naming a tool, never a command line. */
export function expectPlainError(answer: string, code: string): void {
  expect(answer).toMatch(new RegExp(`^${code}: `));
  expect(answer).not.toMatch(/`aref\b|\baref [a-z]/);
}
