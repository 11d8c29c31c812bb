import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { blobKey, sha256Hex } from "@artifact-refs/store/internal";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempRoot } from "./helpers.js";

/** `n` distinct blobs and their keys. */
function blobs(n: number, tag: string): { key: string; data: Uint8Array }[] {
  return Array.from({ length: n }, (_, i) => {
    const data = new TextEncoder().encode(`${tag} blob ${i} `.repeat(200));
    return { key: blobKey(sha256Hex(data)), data };
  });
}

describe("fs batch: missing(keys) after commit, as a head of each key would answer", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let driver: FsDriver;

  beforeEach(async () => {
    ({ root, cleanup } = await tempRoot());
    driver = new FsDriver({ root, fsync: false });
  });
  afterEach(async () => {
    await driver.close();
    await cleanup();
  });

  async function added(list: { key: string; data: Uint8Array }[]) {
    const batch = driver.openBatch();
    for (const b of list) await batch.add(b.key, b.data);
    await batch.commit();
    return batch;
  }

  async function headMissing(keys: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const key of keys) if ((await driver.head(key)) === undefined) out.push(key);
    return out;
  }

  it("finds nothing missing right after commit (packed, loose and already stored blobs)", async () => {
    const before = blobs(3, "old");
    for (const b of before) await driver.putIfAbsent(b.key, b.data); // stored before: the batch refreshes them
    const list = [...before, ...blobs(80, "new")];
    const batch = await added(list);
    expect((await readdir(join(root, "~packs"))).some((n) => n.endsWith(".pack"))).toBe(true);
    expect(await batch.missing(list.map((b) => b.key))).toEqual([]);
  });

  it("reports a packed blob deleted since (the dead log), and one deleted by a conditional delete as gc does", async () => {
    const list = blobs(80, "a");
    const batch = await added(list);
    const keys = list.map((b) => b.key);
    expect(await driver.delete(keys[5]!)).toBe(true);
    expect(await driver.delete(keys[40]!, { ifUnmodifiedSince: new Date(Date.now() + 60_000) })).toBe(true);
    const missing = await batch.missing(keys);
    expect(missing.sort()).toEqual([keys[5]!, keys[40]!].sort());
    expect(missing.sort()).toEqual((await headMissing(keys)).sort());
  });

  it("reports every blob of a pack removed meanwhile, and a blob stored before the batch deleted since", async () => {
    const before = blobs(2, "old");
    for (const b of before) await driver.putIfAbsent(b.key, b.data);
    const fresh = blobs(80, "b");
    const batch = await added([...before, ...fresh]);
    const keys = [...before, ...fresh].map((b) => b.key);
    await driver.delete(before[1]!.key);
    for (const name of await readdir(join(root, "~packs"))) await unlink(join(root, "~packs", name));
    const missing = await batch.missing(keys);
    expect(missing.sort()).toEqual([before[1]!.key, ...fresh.map((b) => b.key)].sort());
    expect(missing.sort()).toEqual((await headMissing(keys)).sort());
  });

  it("does not report a packed blob whose pack copy is gone but which is stored again elsewhere", async () => {
    const list = blobs(80, "c");
    const batch = await added(list);
    const keys = list.map((b) => b.key);
    await driver.delete(keys[7]!);
    await driver.putIfAbsent(keys[7]!, list[7]!.data); // a later put stored it again (a loose file)
    expect(await batch.missing(keys)).toEqual([]);
  });
});
