import { runReadmeQuickstart } from "@artifact-refs/tooling/testing/readme-example";
import { describe, expect, it } from "vitest";

describe("README example", () => {
  it("is examples/quickstart.ts, runs as written and prints what its comments say", () => {
    const { block, out } = runReadmeQuickstart(new URL("..", import.meta.url));
    // every "console.log(…); // value" line and every following "// value" line is in the output, in order
    const promised = [
      ...block.matchAll(
        /^(?:console\.log\(.*\);\s*)?\/\/ (?!Count|A mega|One shared|Budgets|Or count|Per-turn)(.+)$/gm,
      ),
    ].map((m) => m[1]!.trim());
    expect(promised.length).toBeGreaterThan(8);
    let at = 0;
    for (const line of promised) {
      const found = out.indexOf(line, at);
      expect(found, `README promises ${JSON.stringify(line)}; output:\n${out}`).toBeGreaterThanOrEqual(0);
      at = found + line.length;
    }
  }, 120_000); // spawns node + tsx: slow on a loaded machine, not a speed check
});
