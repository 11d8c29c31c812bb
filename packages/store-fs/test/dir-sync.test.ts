import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileMaker } from "../src/files.js";
import { tempRoot } from "./helpers.js";

// A crash cannot be caused for real in a test: what is checked is that every directory the maker
// creates has its parent fsynced (so its entry is durable before any file in it is), once, not per file.
describe("new directories are fsynced into their parent", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ root, cleanup } = await tempRoot());
  });
  afterEach(async () => cleanup());

  it("syncs the parent once per new directory, never for a directory that exists", async () => {
    const maker = new FileMaker(root, () => undefined, true);
    await maker.ensureDir(join(root, "blobs", "sha256", "ab", "cd"));
    // root's parent (best effort) + blobs, sha256, ab, cd in their parents: one each.
    expect(maker.parentsSynced).toBe(5);
    await maker.ensureDir(join(root, "blobs", "sha256", "ab", "cd"));
    await maker.ensureDir(join(root, "blobs", "sha256", "ab", "ef"));
    expect(maker.parentsSynced).toBe(6); // only "ef" is new
    // A second maker (another process) finds them made: mkdir EEXIST creates nothing, syncs nothing.
    const other = new FileMaker(root, () => undefined, true);
    await other.ensureDir(join(root, "blobs", "sha256", "ab", "ef"));
    expect(other.parentsSynced).toBe(0);
    expect(await readdir(join(root, "blobs", "sha256", "ab"))).toEqual(["cd", "ef"]);
  });

  it("does not sync without fsync", async () => {
    const maker = new FileMaker(root, () => undefined, false);
    await maker.ensureDir(join(root, "x", "y"));
    expect(maker.parentsSynced).toBe(0);
  });
});
