import { readFileSync } from "node:fs";
import { runExample } from "@artifact-refs/tooling/testing/examples";
import { describe, expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

describe("README example", () => {
  it("examples/quickstart.ts runs and prints the values the README shows", () => {
    const out = runExample(new URL("../examples/quickstart.ts", import.meta.url));
    const shown = [
      "matches 3-10 of 10 (from line 1,008) not shown: maxMatches 2",
      '"mode":"grep","pattern":"ERROR","context":1,"maxMatches":2,"skip":2',
      "JSON object, 2 keys: data (array[1]), has_more (boolean)",
      "Log, 5,000 lines: 10 errors, 0 warnings; most frequent (10x): ERROR job 7 failed: disk full",
      '{"candidates":[{"id":"e2","score":1,"reasons":["tool: read_file is a file read","order: most recent of 1 matching (the most recent)"]}],"ambiguous":false}',
      '{"candidates":[],"ambiguous":false}',
      "[ 'e3', 'e2', 'e1' ] 50 tokens; left out: []",
    ];
    for (const value of shown) expect(out).toContain(value);
    // the README's condensed copy shows the same values
    for (const value of [
      shown[0]!,
      shown[2]!,
      shown[3]!,
      "items e3, e2, e1 (50 tokens), omitted: []",
      "{ candidates: [], ambiguous: false }",
    ])
      expect(readme).toContain(value);
    expect(
      out.startsWith(
        "7-INFO job 6 ok\n8:ERROR job 7 failed: disk full\n9-INFO job 8 ok\n--\n507-INFO job 506 ok\n508:ERROR",
      ),
    ).toBe(true);
  }, 120_000); // spawns node + tsx: slow on a loaded machine, not a speed check
});
