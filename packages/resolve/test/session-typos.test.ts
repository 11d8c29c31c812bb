// SessionIndex.typosOf compares a word with the vocabulary's tokens that can be a variant (those
// without a digit), not with every token: its lists must be exactly what a walk over the whole
// vocabulary with isVariant gives, in the same (vocabulary) order, for a prefix of the session and
// after records are appended (the cache is kept up to date by add).
import { describe, expect, it } from "vitest";
import { executions } from "../bench/fixtures.js";
import { indexExecution } from "../src/resolution/executions.js";
import { SessionIndex } from "../src/resolution/session.js";
import { isTypo, isVariant } from "../src/resolution/tokens.js";

/** The typos of `word` among the tokens of the first `n` records, by walking every token. */
function walk(index: SessionIndex, word: string, n: number): string[] {
  return [...index.tokens.keys()].filter((tok) => index.tokens.get(tok)![0]! < n && isVariant(word, tok));
}

// Typos (5+ letters), abbreviations (2-4: prefixes, consonants), words with digits, words no token is near.
const WORDS = ["billng", "invoce", "paymnt", "sesion", "metrcs", "schemaid", "cfg", "inv", "pmt", "k8s", "db", "sch"];
WORDS.push("orders3", "e12", "zzzzzz", "ord", "usr", "srch", "wrkr");

describe("SessionIndex.typosOf", () => {
  it("gives what a walk over the whole vocabulary gives, in vocabulary order, on a session with ids and numbers", () => {
    const records = executions(3000).map((e, i) => indexExecution(e, i));
    const index = new SessionIndex();
    for (const x of records) index.add(x);
    // The session's vocabulary holds tokens with digits (ids, numbers), which must never be listed.
    expect([...index.tokens.keys()].some((t) => /\d/.test(t))).toBe(true);
    let listed = 0;
    for (const word of WORDS) {
      for (const n of [1, 40, 1000, 3000]) {
        const found = index.typosOf(word, n);
        expect(found, `${word} in the first ${n} records`).toStrictEqual(walk(index, word, n));
        listed += found.length;
      }
    }
    expect(listed).toBeGreaterThan(0); // the words do reach some tokens
  });

  it("follows records appended after a word was looked up", () => {
    const index = new SessionIndex();
    const first = executions(200).map((e, i) => indexExecution(e, i));
    for (const x of first) index.add(x);
    expect(index.typosOf("reconcle", 200)).toStrictEqual([]);
    const added = indexExecution(
      {
        id: "late",
        tool_name: "execute_bash",
        tool_args: { command: "node reconcile.js --batch 7" },
        summary: "reconcile 12 accounts",
      },
      200,
    );
    index.add(added);
    expect(index.typosOf("reconcle", 201)).toStrictEqual(walk(index, "reconcle", 201));
    expect(index.typosOf("reconcle", 201)).toContain("reconcile");
    expect(index.typosOf("reconcle", 200)).toStrictEqual([]);
    // A word first looked up after the record came (not in the cache then): found through the new token too.
    expect(index.typosOf("reconcilee", 201)).toStrictEqual(["reconcile"]);
  });

  it("stemTyposOf lists the basename stems that are a typo of a name, and follows files appended later", () => {
    const read = (id: string, path: string) =>
      ({ id, tool_name: "read_file", tool_args: { path }, summary: "ok" }) as const;
    const files = ["src/config.ts", "src/server.ts", "lib/configs.json", "src/orders3.ts", "docs/conifg.md"];
    const index = new SessionIndex();
    for (const [i, path] of files.entries()) index.add(indexExecution(read(`r${i}`, path), i));
    // Fixture files too: their stems hold a digit ("orders3"), which no typo reaches.
    for (const [i, e] of executions(300).entries()) index.add(indexExecution(e, files.length + i));
    const walkStems = (name: string) => [...index.baseStems.keys()].filter((s) => isTypo(name, s));
    for (const name of ["confg", "config", "servr", "orders", "orders3", "cfg", "zzzzzz"])
      expect([...index.stemTyposOf(name)], name).toStrictEqual(walkStems(name));
    expect(index.stemTyposOf("confg")).toStrictEqual(["config", "conifg"]);
    // A file that comes after the name was asked about is in the next answer (the cache follows add).
    index.add(indexExecution(read("late", "src/confog.ts"), 400));
    expect(index.stemTyposOf("confg")).toStrictEqual(walkStems("confg"));
    expect(index.stemTyposOf("confg")).toContain("confog");
  });
});
