import { FetchReceiptSchema } from "@artifact-refs/schema";
import { describe, expect, it } from "vitest";
import { prng, run, tempStore } from "./helpers.js";

const ALPHABET = ["a", "b", "z", " ", "\n", "\n", "é", "🚀", "\t", "ERROR ", "{", "}", '"', "0"];

/** Random text of about `size` chars: mixed line lengths, multi-byte and astral characters. */
function randomText(rand: () => number, size: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const piece =
      rand() < 0.02 ? "x".repeat(Math.floor(rand() * 3000)) : ALPHABET[Math.floor(rand() * ALPHABET.length)]!;
    parts.push(piece);
    length += piece.length;
  }
  return parts.join("");
}

describe("fetch never exceeds --max-chars", () => {
  it("for random contents, sizes, caps and selectors", async () => {
    const rand = prng(20261122);
    const store = tempStore();
    let checked = 0;
    for (let round = 0; round < 12; round++) {
      const size = Math.floor(rand() * 120_000);
      const text = randomText(rand, size);
      const stash = await run(["stash", "-", "--store", store, "--json", "--max-bytes", "1MiB"], { stdin: text });
      expect(stash.code).toBe(0);
      const ref = stash.json().short_ref as string;
      for (let k = 0; k < 4; k++) {
        const cap = 1 + Math.floor(rand() * (rand() < 0.5 ? 200 : 20_000));
        const selectors = [
          [],
          ["--head", String(Math.floor(rand() * 50))],
          ["--tail", String(Math.floor(rand() * 50))],
          ["--head", String(Math.floor(rand() * 10)), "--tail", String(Math.floor(rand() * 10))],
          ["--grep", "ERROR|é", "--context", String(Math.floor(rand() * 4))],
          ["--range", `${1 + Math.floor(rand() * 5)}:`],
        ];
        const selector = selectors[Math.floor(rand() * selectors.length)]!;
        const r = await run(["fetch", ref, "--store", store, "--json", "--max-chars", String(cap), ...selector]);
        const f = FetchReceiptSchema.parse(r.json());
        expect(r.code, `${selector.join(" ")} cap ${cap}`).toBe(f.stats?.matches === 0 ? 1 : 0); // no match: exit 1, like grep
        expect(f.text.length).toBeLessThanOrEqual(cap);
        expect(f.chars).toBe(f.text.length);
        expect(f.total_chars).toBe(text.length);
        if (f.text.length < text.length && selector.length === 0) expect(f.truncated).toBe(true);
        // Human output writes exactly the selected text on stdout, ended by a newline when it has none.
        const human = await run(["fetch", ref, "--store", store, "--max-chars", String(cap), ...selector]);
        expect(human.out).toBe(f.text === "" || f.text.endsWith("\n") ? f.text : `${f.text}\n`);
        checked++;
      }
    }
    expect(checked).toBe(48);
  });
});
