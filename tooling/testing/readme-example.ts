// For the packages whose README example is a copy of examples/quickstart.ts.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { firstTsBlock, runExample } from "./examples.js";

/**
 * Checks the README's first ```ts block is examples/quickstart.ts word for word, runs that file as
 * written and returns the block and what it printed. `packageRoot` is the package's directory URL,
 * e.g. `new URL("..", import.meta.url)` from test/.
 */
export function runReadmeQuickstart(packageRoot: URL): { block: string; out: string } {
  const example = new URL("examples/quickstart.ts", packageRoot);
  const block = firstTsBlock(new URL("README.md", packageRoot));
  expect(block.trim(), "the README's example is examples/quickstart.ts").toBe(readFileSync(example, "utf8").trim());
  return { block, out: runExample(example) };
}
