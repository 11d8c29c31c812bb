// Paging through one stored artifact with artifacts_get range selectors, whatever form the
// adapter answers in (its JSON answer `{ text, next }`, or the plain-text answer: the selected
// text, then a note "[artifacts_get: N chars of …]" and "next part: call artifacts_get with {…}").

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
