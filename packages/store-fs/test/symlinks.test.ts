import { mkdir, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isArefError } from "@artifact-refs/schema";
import { ArtifactStore } from "@artifact-refs/store";
import { sha256Hex } from "@artifact-refs/store/internal";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempRoot } from "./helpers.js";

// Issue 17, finding 12: symlinks planted in the store are never followed; verify reports and repairs them.
const blobPath = (root: string, id: string) => join(root, "blobs", "sha256", id.slice(0, 2), id.slice(2, 4), id);

let t: Awaited<ReturnType<typeof tempRoot>>;
let outside: string;
beforeEach(async () => {
  t = await tempRoot();
  outside = join(t.parent, "outside");
  await mkdir(outside);
  await writeFile(join(outside, "target.txt"), "target file outside the store\n");
});
afterEach(() => t.cleanup());

const open = () => new ArtifactStore({ driver: new FsDriver({ root: t.root }) });

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("symlinks in the fs store (issue 17 #12)", () => {
  it("a blob replaced by a symlink is never read through, verify reports it and --repair removes it, re-stash heals it", async () => {
    const store = open();
    const content = "the real content\n".repeat(10);
    const put = await store.put(content, { session: "s1" });
    const target = join(outside, "target.txt");
    const before = await stat(target);
    await rm(blobPath(t.root, put.id));
    await symlink(target, blobPath(t.root, put.id));

    const error = await caught(store.get(put.id, { session: "s1" }));
    expect(isArefError(error)).toBe(true);
    expect((error as { code: string }).code).toBe("IO_ERROR");
    expect((error as Error).message).toMatch(/symbolic link|not a regular file/);

    const report = await store.verify();
    expect(report.ok).toBe(false);
    expect(report.problems.some((p) => p.kind === "irregular_file" && p.key.includes(put.id))).toBe(true);
    const repaired = await store.verify({ repair: true });
    expect(repaired.problems.find((p) => p.kind === "irregular_file")?.repaired).toBe(true);

    // Re-stashing writes a regular file; the symlink's target is untouched.
    await store.put(content, { session: "s1" });
    expect(new TextDecoder().decode(await store.get(put.id, { session: "s1" }))).toBe(content);
    const after = await stat(target);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(target, "utf8")).toBe("target file outside the store\n");
    expect((await store.verify()).ok).toBe(true);
    await store.close();
  });

  it("re-stashing over a planted symlink never touches its target", async () => {
    const store = open();
    const content = "content A\n".repeat(20);
    const id = sha256Hex(new TextEncoder().encode(content));
    await mkdir(join(t.root, "blobs", "sha256", id.slice(0, 2), id.slice(2, 4)), { recursive: true });
    const target = join(outside, "target.txt");
    const before = await stat(target);
    await new Promise((r) => setTimeout(r, 20));
    await symlink(target, blobPath(t.root, id));
    await store.put(content, { session: "s1" });
    expect((await stat(target)).mtimeMs).toBe(before.mtimeMs);
    expect(new TextDecoder().decode(await store.get(id, { session: "s1" }))).toBe(content);
    await store.close();
  });

  it("a symlinked refs/<session> directory is refused: no reference lands outside the store", async () => {
    const store = open();
    await store.put("first\n", { session: "s0" }); // creates refs/
    await symlink(outside, join(t.root, "refs", "s1"));
    const error = await caught(store.put("second\n", { session: "s1" }));
    expect(isArefError(error)).toBe(true);
    expect((await readdir(outside)).sort()).toEqual(["target.txt"]);
    const listing = await caught(store.listReferences("s1"));
    expect(listing === undefined || isArefError(listing)).toBe(true);
    const report = await store.verify();
    expect(report.problems.some((p) => p.kind === "irregular_file" && p.key === "refs/s1")).toBe(true);
    await store.close();
  });
});
