// Following `next` with `aref fetch`: each part is fetched with the flags the CLI prints for the
// next part (the `next:` line on stderr), the text taken from the --json receipt (stdout adds a
// final newline for the terminal); the parts rebuild the content or the full match list.
import { type FetchPart, followCases, followNext } from "@artifact-refs/tooling/testing/follow-next";
import { describe, expect, it } from "vitest";
import { run, tempFile, tempStore } from "./helpers.js";

/** Splits a printed command line into arguments (words, and 'single-quoted' words as the CLI quotes them). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g))
    words.push(m[1] === undefined ? m[2]! : m[1].replace(/'\\''/g, "'"));
  return words;
}

describe("aref fetch follows next to the end", () => {
  for (const c of followCases()) {
    it(c.name, async () => {
      const store = tempStore();
      const stash = await run([
        "stash",
        tempFile("content.txt", c.content),
        "--store",
        store,
        "--mime",
        c.mime,
        "--json",
      ]);
      expect(stash.code).toBe(0);
      const ref = stash.json().short_ref as string;
      // The first selector as flags; after it, the flags printed for the next part.
      let flags: string[] =
        c.first.mode === "grep"
          ? ["--grep", String(c.first.pattern)]
          : c.first.mode === "jsonpath"
            ? ["--jsonpath", String(c.first.expr)]
            : c.first.mode === "range"
              ? ["--range", `${c.first.start}:`]
              : [];
      const fetch: FetchPart = async (selector) => {
        const plain = await run(["fetch", ref, ...flags, "--store", store]);
        expect(plain.code, plain.err).toBe(0);
        const r = await run(["fetch", ref, ...flags, "--store", store, "--json"]);
        expect(r.code, r.err).toBe(0);
        const receipt = r.json();
        expect(receipt.selector).toMatchObject(selector);
        const printed = /^next: aref fetch (.*)$/m.exec(plain.err)?.[1];
        if (receipt.next === undefined) expect(printed).toBeUndefined();
        else {
          const words = shellWords(printed!);
          expect(words[0]).toBe(ref);
          flags = words.slice(1);
        }
        return { text: receipt.text, next: receipt.next };
      };
      c.check(await followNext(fetch, c.first), c.content);
    });
  }
});
