// Paging through one stored artifact with artifacts_get range selectors, whatever form the
// adapter answers in (its JSON answer `{ text, next }`, or the plain-text answer: the selected
// text, then a note "[artifacts_get: N chars of …]" and "next part: call artifacts_get with {…}").
import { expect } from "vitest";

/** A log of about `bytes` bytes (ASCII lines, one "ERROR" line in 17); its middle line is `middleLine(log)`. */
export function bigToolLog(bytes: number): string {
  const lines: string[] = [];
  let total = 0;
  for (let i = 1; total < bytes; i++) {
    const line = `${i} ${i % 17 === 0 ? "ERROR" : "INFO"} worker-${(i * 7) % 13} handled request ${(i * 2654435761) % 100000} in ${(i * 31) % 997}ms`;
    lines.push(line);
    total += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

export const middleLine = (log: string): string => {
  const lines = log.split("\n");
  return lines[Math.floor(lines.length / 2)]!;
};

export interface Page {
  text: string;
  next: unknown;
}

/** One artifacts_get answer's selected text and next selector. */
export function readPage(answer: string): Page {
  if (answer.startsWith("{")) {
    const parsed = JSON.parse(answer) as { text?: unknown; next?: unknown; error?: { code: string; message: string } };
    if (parsed.error) throw new Error(`artifacts_get failed: ${parsed.error.code}: ${parsed.error.message}`);
    if (typeof parsed.text === "string") return { text: parsed.text, next: parsed.next };
  }
  const notes = [...answer.matchAll(/\[artifacts_get: (\d+) chars of /g)];
  if (notes.length === 0) throw new Error(`not an artifacts_get answer: ${answer.slice(0, 200)}`);
  const text = answer.slice(0, Number(notes.at(-1)![1]));
  const next = /^next part: call artifacts_get with (\{.*\})$/m.exec(answer.slice(notes.at(-1)!.index));
  return { text, next: next ? (JSON.parse(next[1]!) as { selector: unknown }).selector : undefined };
}

/** Follows `next` from range line 1 to the end; returns the pages' texts. */
export async function pageAll(get: (selector: unknown) => Promise<string>, maxPages = 10_000): Promise<string[]> {
  const pages: string[] = [];
  let selector: unknown = { mode: "range", start: 1 };
  while (selector !== undefined) {
    const page = readPage(await get(selector));
    pages.push(page.text);
    selector = page.next;
    if (pages.length > maxPages) throw new Error(`artifacts_get paging did not end after ${maxPages} pages`);
  }
  return pages;
}

/** What `expectStoredWhole` reads of the store (structural: this package imports no workspace package). */
export interface RecordReader {
  getRecord(ref: string, options: { session: string }): Promise<{ size_bytes: number; chunked?: { chunks: number } }>;
}

/**
 * The 5 MB case of every SDK adapter: what the model was `shown` for the tool's output is a short
 * reference (under 12,000 chars, without the payload), the store holds `log` whole (chunked), and
 * paging with the adapter's artifacts_get (`get(ref, selector)`, the answer's text) from that
 * reference rebuilds it byte for byte, no page over `maxChars`.
 */
export async function expectStoredWholeAndPaged(
  store: RecordReader,
  session: string,
  log: string,
  shown: string,
  get: (ref: string, selector: unknown) => Promise<string>,
  maxChars = 100_000,
): Promise<void> {
  expect(shown.length).toBeLessThan(12_000);
  expect(shown).not.toContain(middleLine(log));
  const ref = /art:[0-9a-f]{12,64}/.exec(shown)![0];
  const record = await store.getRecord(ref, { session });
  expect(record.size_bytes).toBe(Buffer.byteLength(log));
  expect(record.chunked?.chunks).toBeGreaterThan(20);
  const pages = await pageAll((selector) => get(ref, selector));
  expect(pages.length).toBeGreaterThan(50);
  expect(Math.max(...pages.map((p) => p.length))).toBeLessThanOrEqual(maxChars);
  expect(pages.join("")).toBe(log);
}
