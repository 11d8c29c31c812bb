import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { assertBuilt } from "./children.js";

/**
 * For a describe block whose children run built JS on a temporary directory: before its tests,
 * checks `packages` are built and makes the directory (`prefix` + random); after them, removes it.
 * Returns a getter for the directory's path, to call inside the tests.
 */
export function builtSuiteDir(packages: string[], prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    assertBuilt(packages);
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (dir === undefined) throw new Error(`the ${prefix}* directory exists only inside the suite's tests`);
    return dir;
  };
}
