// For the tests that keep a package's README example honest: the example file runs as written.
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** Runs a TypeScript example as written (node + tsx, workspace packages from source) and returns its stdout. */
export function runExample(file: URL): string {
  return execFileSync(
    process.execPath,
    ["--conditions=@artifact-refs/source", "--import", "tsx", fileURLToPath(file)],
    { encoding: "utf8" },
  );
}

/** The first ```ts block of a markdown file, e.g. a README's example. */
export function firstTsBlock(markdown: URL): string {
  const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(markdown, "utf8"))?.[1];
  if (block === undefined) throw new Error(`${fileURLToPath(markdown)} has no \`\`\`ts block`);
  return block;
}

/**
 * Runs a TypeScript example like runExample, with `env` added to this process's environment and
 * without blocking this process (so a local server in the test can answer the example); 60 s at most.
 */
export async function runExampleWithEnv(file: URL, env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--conditions=@artifact-refs/source", "--import", "tsx", fileURLToPath(file)],
    { env: { ...process.env, ...env }, timeout: 60_000 },
  );
  return stdout;
}
