import { chmod, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { blobKey } from "@artifact-refs/store/internal";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runChild, stageChildForAnyUser, tempRoot } from "./helpers.js";

const NOBODY = 65534;

/** Opens the whole tree to other users for reading (dirs 0755, files 0644). */
async function openForReading(path: string): Promise<void> {
  const info = await stat(path);
  if (info.isDirectory()) {
    await chmod(path, 0o755);
    for (const entry of await readdir(path)) await openForReading(join(path, entry));
  } else {
    await chmod(path, 0o644);
  }
}

interface Attempt<T> {
  ok: boolean;
  value?: T;
  error?: { code: string; message: string; hint?: string };
}

interface ReadonlyResult {
  uid: number;
  put: Attempt<unknown>;
  reput: Attempt<unknown>;
  get: Attempt<string>;
  shard: Attempt<string[]>;
  all: Attempt<number>;
}

describe("fs store: a store directory this user cannot write", () => {
  let cleanup: (() => Promise<void>) | undefined;
  let staged: { child: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    assertBuilt();
    staged = await stageChildForAnyUser();
  });
  afterAll(async () => staged.cleanup());
  afterEach(async () => cleanup?.());

  // Tests run as root here, and root ignores file modes; so the store is made readable
  // (not writable) by everyone and a child process runs as the unprivileged user nobody.
  it("put fails with READ_ONLY naming the path, get still works, listing walks only the reachable shard", async () => {
    const temp = await tempRoot();
    cleanup = temp.cleanup;
    const store = new ArtifactStore({ driver: new FsDriver({ root: temp.root }) });
    const a = await store.put("readable content A", { session: "s" });
    let b = await store.put("content B 0");
    for (let i = 1; b.id.slice(0, 2) === a.id.slice(0, 2); i++) b = await store.put(`content B ${i}`);
    await openForReading(temp.parent);
    // One first-level shard stays private to root: a listing that walked it would fail.
    const forbidden = join(temp.root, "blobs", "sha256", b.id.slice(0, 2));
    await chmod(forbidden, 0o700);

    const readablePrefix = blobKey(a.id).slice(0, -a.id.length) + a.id.slice(0, 8);
    const result = await runChild<ReadonlyResult>(
      { job: "readonly", root: temp.root, existingId: a.id, existingText: "readable content A", readablePrefix },
      { uid: NOBODY, gid: NOBODY, cwd: "/" },
      staged.child,
    );
    expect(result.ok, JSON.stringify(result.error)).toBe(true);
    const r = result.value;
    expect(r.uid).toBe(NOBODY);

    expect(r.put.ok).toBe(false);
    expect(r.put.error?.code).toBe("READ_ONLY");
    expect(r.put.error?.message).toContain(temp.root);
    expect(r.put.error?.message).toMatch(/read-only for this user/);
    expect(r.put.error?.hint).toMatch(/write access/);
    // Re-putting stored content must refresh its time: also a write, also refused.
    expect(r.reput.error?.code).toBe("READ_ONLY");

    expect(r.get).toEqual({ ok: true, value: "readable content A" });
    expect(r.shard).toEqual({ ok: true, value: [blobKey(a.id)] });
    expect(r.all.ok).toBe(false);
    expect(r.all.error?.code).toBe("PERMISSION_DENIED");
    expect(r.all.error?.message).toContain(forbidden);

    // Nothing was written by the refused puts.
    expect((await store.stats()).blobs).toBe(2);
    expect((await store.verify()).ok).toBe(true);
  });
});
