// For the tests that keep a package's README example honest: the example file runs as written.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Runs a TypeScript example as written (node + tsx, workspace packages from source) and returns its stdout. */
export function runExample(file: URL): string {
  return execFileSync(process.execPath, ["--conditions=source", "--import", "tsx", fileURLToPath(file)], { encoding: "utf8" });
}

/** The first ```ts block of a markdown file, e.g. a README's example. */
export function firstTsBlock(markdown: URL): string {
  const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(markdown, "utf8"))?.[1];
  if (block === undefined) throw new Error(`${fileURLToPath(markdown)} has no \`\`\`ts block`);
  return block;
}
