// Start-up: a command loads only what it uses. The built binary runs as a real process with a
// module-resolution hook that writes every file it loads to stderr; the tests check which
// packages were loaded (never how long it took).
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ENCODINGS as BUDGET_ENCODINGS, TOKENIZER_IMPLS as BUDGET_IMPLS } from "@artifact-refs/budget";
import { TRANSCRIPT_FORMATS as CONTEXT_FORMATS } from "@artifact-refs/context";
import { beforeAll, describe, expect, it } from "vitest";
import { ENCODINGS, TOKENIZER_IMPLS } from "../src/commands/count-options.js";
import { TRANSCRIPT_FORMATS } from "../src/commands/migrate.js";
import { BIN, CLI_DIR, tempDir, tempFile, tempStore } from "./helpers.js";

const LOADED = "aref-test-loaded ";
let register: string;

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: build the CLI first (pnpm --filter @artifact-refs/cli... build)`);
  const dir = tempDir("aref-startup-");
  const hooks = join(dir, "hooks.mjs");
  // Hooks run on their own thread: write straight to file descriptor 2.
  writeFileSync(
    hooks,
    `import { writeSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith("file:")) writeSync(2, ${JSON.stringify(LOADED)} + result.url + "\\n");
  return result;
}
`,
  );
  register = join(dir, "register.mjs");
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
});

/** The workspace packages (and heavy libraries) a run of `aref args` loads. */
function loaded(args: string[], input?: string): string[] {
  const r = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, BIN, ...args], {
    cwd: CLI_DIR,
    env: { PATH: process.env.PATH, HOME: tempDir("aref-home-") },
    input: input ?? "",
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  const names = new Set<string>();
  for (const line of r.stderr.split("\n")) {
    if (!line.startsWith(LOADED)) continue;
    const url = line.slice(LOADED.length);
    const workspace = /\/(?:packages|apps)\/([^/]+)\/(?:dist|src)\//.exec(url);
    const library = /\/node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/.exec(url);
    if (library) names.add(library[1]!.replace("+", "/"));
    else if (workspace) names.add(`@artifact-refs/${workspace[1]}`);
  }
  return [...names].sort();
}

// (The hook sees ES module loads; tiktoken and cli-progress are require()d, by budget and by a shown progress bar.)
const HEAVY = [
  "@artifact-refs/budget",
  "@artifact-refs/context",
  "@artifact-refs/hot-state",
  "@artifact-refs/resolve",
  "@artifact-refs/server",
  "@artifact-refs/mcp",
];

describe("start-up", () => {
  it("aref --help loads commander and the schema, none of the commands' heavy packages", () => {
    const names = loaded(["--help"]);
    expect(names).toContain("commander");
    expect(names).toContain("@artifact-refs/schema");
    for (const heavy of [...HEAVY, "@artifact-refs/store-spec"]) expect(names, heavy).not.toContain(heavy);
  });

  it("a command loads what it runs on: stash the store and resolve (summaries), tokens the tokenizer package", () => {
    const stash = loaded(["stash", tempFile("small.txt", "hello\n"), "--store", tempStore()]);
    expect(stash).toEqual(
      expect.arrayContaining(["@artifact-refs/store-spec", "@artifact-refs/store-fs", "@artifact-refs/resolve"]),
    );
    for (const heavy of [
      "@artifact-refs/context",
      "@artifact-refs/hot-state",
      "@artifact-refs/server",
      "@artifact-refs/mcp",
    ])
      expect(stash, heavy).not.toContain(heavy);
    const tokens = loaded(["tokens", "-"], "count me");
    expect(tokens).toContain("@artifact-refs/budget");
    expect(tokens).not.toContain("@artifact-refs/store-spec");
  });

  it("the flag lists kept in the CLI (so --help loads no package for them) equal the packages' own, in order", () => {
    expect(ENCODINGS).toEqual([...BUDGET_ENCODINGS]);
    expect(TOKENIZER_IMPLS).toEqual([...BUDGET_IMPLS]);
    expect(TRANSCRIPT_FORMATS).toEqual([...CONTEXT_FORMATS]);
  });
});
