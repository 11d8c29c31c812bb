import { mkdir, readFile, readdir, rm, stat, truncate, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isArefError, type ErrorCode } from "@artifact-refs/schema";
import { ArtifactStore } from "@artifact-refs/store";
import { blobKey, sha256Hex } from "@artifact-refs/store/internal";
import { FsDriver, SCRATCH_MIN_AGE_MS } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempRoot } from "./helpers.js";

async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<Error & { hint?: string }> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(isArefError(caught), `expected ArefError ${code}, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  return caught as Error & { hint?: string };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const shardDir = (root: string, top: string, id: string) => join(root, top, "sha256", id.slice(0, 2), id.slice(2, 4));

/** Names, sizes and times of everything under `dir`: to show a directory was not touched. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const info = await stat(join(dir, name));
    out.push(`${name} ${info.isDirectory() ? "dir" : info.size} ${info.mtimeMs}`);
    if (info.isDirectory()) out.push(...(await snapshot(join(dir, name))).map((line) => `${name}/${line}`));
  }
  return out;
}

for (const gzip of [false, true]) {
  describe(`fs store: damaged files on disk${gzip ? " (gzip)" : ""}`, () => {
    let root: string;
    let cleanup: () => Promise<void>;
    let store: ArtifactStore;
    const blobFile = (id: string) => join(shardDir(root, "blobs", id), gzip ? `${id}.gz` : id);
    const metaFile = (id: string) => join(shardDir(root, "meta", id), `${id}.json`);
    beforeEach(async () => {
      ({ root, cleanup } = await tempRoot());
      store = new ArtifactStore({ driver: new FsDriver({ root, gzip }), gcGraceMs: 0 });
    });
    afterEach(async () => cleanup());

    it("a flipped byte in a blob file: read fails with INTEGRITY, verify reports it, re-putting heals it", async () => {
      const content = "precious bytes on disk\n".repeat(300);
      const { id } = await store.put(content, { session: "s" });
      const bytes = await readFile(blobFile(id));
      bytes[Math.floor(bytes.length / 2)]! ^= 0x20;
      await writeFile(blobFile(id), bytes);

      const error = await expectCode(store.get(id), "INTEGRITY");
      expect(error.message).toContain(id.slice(0, 12));
      expect(error.hint).toMatch(/verify/);
      const report = await store.verify();
      expect(report.ok).toBe(false);
      expect(report.problems).toEqual([
        expect.objectContaining({ kind: "integrity", artifact_id: id, key: blobKey(id), repaired: false }),
      ]);

      const healed = await store.put(content, { session: "s" });
      expect(healed).toMatchObject({ id, created: false, healed: true });
      expect(await store.getText(id)).toBe(content);
      expect((await stat(blobFile(id))).mode & 0o777).toBe(0o600);
      expect((await store.verify()).ok).toBe(true);
      expect((await readdir(shardDir(root, "blobs", id))).length).toBe(1); // no second copy, no temp file
    });

    it("a truncated blob file fails its integrity check too", async () => {
      const { id } = await store.put("x".repeat(10_000));
      await truncate(blobFile(id), 10);
      await expectCode(store.get(id), "INTEGRITY");
      expect((await store.verify()).problems.map((p) => p.kind)).toEqual(["integrity"]);
    });

    it("a truncated, empty or garbage metadata file is CORRUPT_METADATA; the content stays readable; verify --repair rebuilds it", async () => {
      const content = '{"rows": [1, 2, 3]}';
      const { id } = await store.put(content, { session: "s", label: "rows" });
      const original = await readFile(metaFile(id));
      for (const damage of [
        original.subarray(0, original.length / 2),
        Buffer.alloc(0),
        Buffer.from([0, 159, 146, 150, 0xff, 0x7b, 0x7b]),
      ]) {
        await writeFile(metaFile(id), damage);
        const error = await expectCode(store.getRecord(id), "CORRUPT_METADATA");
        expect(error.hint).toMatch(/verify --repair/);
        expect(await store.getText(id)).toBe(content);
        expect((await store.verify()).problems).toEqual([
          expect.objectContaining({ kind: "corrupt_metadata", artifact_id: id, repaired: false }),
        ]);
        expect(await store.verify({ repair: true })).toMatchObject({ ok: true, repaired: 1 });
        const record = await store.getRecord(id);
        expect(record).toMatchObject({ artifact_id: id, mime: "application/json", size_bytes: content.length });
        expect((await stat(metaFile(id))).mode & 0o777).toBe(0o600);
      }
    });

    it("a deleted blob file: NOT_FOUND on read, verify reports the orphaned record and reference", async () => {
      const { id } = await store.put("soon gone", { session: "s" });
      await store.driver.delete(blobKey(id));
      await expectCode(store.get(id), "NOT_FOUND");
      const kinds = (await store.verify()).problems.map((p) => p.kind).sort();
      expect(kinds).toEqual(["missing_blob", "missing_blob"]);
    });
  });
}

describe("fs store: leftovers, odd files and bad input", () => {
  let root: string;
  let parent: string;
  let cleanup: () => Promise<void>;
  let driver: FsDriver;
  let store: ArtifactStore;
  beforeEach(async () => {
    ({ root, parent, cleanup } = await tempRoot());
    driver = new FsDriver({ root });
    store = new ArtifactStore({ driver, gcGraceMs: 0 });
  });
  afterEach(async () => cleanup());

  it("leftover temp and trash files: never listed, reported by verify, removed by verify --repair and gc", async () => {
    const { id } = await store.put("kept content", { session: "s" });
    const blobDir = shardDir(root, "blobs", id);
    const temp = join(blobDir, ".tmp-99999-dead00-0");
    const trash = join(shardDir(root, "meta", id), ".trash-99999-dead00-1");
    await writeFile(temp, "half a wri");
    await writeFile(trash, "{}");
    const listed: string[] = [];
    for await (const entry of driver.list("")) listed.push(entry.key);
    expect(listed.some((k) => k.includes(".tmp-") || k.includes(".trash-"))).toBe(false);
    expect(listed.length).toBe(4); // blob, meta, reference, layout.json

    // Young leftovers may belong to a write in progress: a store with a long grace leaves them alone.
    const patient = new ArtifactStore({ driver, gcGraceMs: 60_000 });
    expect((await patient.verify()).problems).toEqual([]);
    expect((await patient.gc()).temp_files_removed).toBe(0);

    await sleep(SCRATCH_MIN_AGE_MS + 100);
    const report = await store.verify();
    expect(report.ok).toBe(false);
    const tempKey = `blobs/sha256/${id.slice(0, 2)}/${id.slice(2, 4)}/.tmp-99999-dead00-0`;
    const trashKey = `meta/sha256/${id.slice(0, 2)}/${id.slice(2, 4)}/.trash-99999-dead00-1`;
    expect(report.problems).toEqual([
      expect.objectContaining({ kind: "temp_file", key: tempKey, repaired: false }),
      expect.objectContaining({ kind: "temp_file", key: trashKey, repaired: false }),
    ]);
    expect(await readdir(blobDir)).toContain(".tmp-99999-dead00-0"); // a plain verify changes nothing

    expect(await store.verify({ repair: true })).toMatchObject({ ok: true, repaired: 2 });
    expect(await readdir(blobDir)).toEqual([id]);
    expect(await store.verify()).toMatchObject({ ok: true, problems: [] });

    await writeFile(temp, "another interrupted write");
    await sleep(SCRATCH_MIN_AGE_MS + 100);
    expect((await store.gc({ dryRun: true })).temp_files_removed).toBe(1);
    expect(await readdir(blobDir)).toContain(".tmp-99999-dead00-0");
    const gc = await store.gc();
    expect(gc.temp_files_removed).toBe(1);
    expect(gc.swept).toEqual([]);
    expect(await readdir(blobDir)).toEqual([id]);
    expect(await store.getText(id)).toBe("kept content");
    await expect(driver.sweepTemp(-1)).rejects.toThrow(/age >= 0/);
  });

  it("a store directory removed behind the driver's back is created again by the next write", async () => {
    await store.put("first", { session: "s" });
    await rm(root, { recursive: true, force: true });
    const { id } = await store.put("second", { session: "s" });
    expect(await store.getText(id)).toBe("second");
    expect((await stat(root)).mode & 0o777).toBe(0o700);
  });

  it("unknown sessions: UNKNOWN_SESSION for listing, NOT_FOUND for a read through them", async () => {
    const { id } = await store.put("in s1", { session: "s1" });
    await expectCode(store.listReferences("never-seen"), "UNKNOWN_SESSION");
    await expectCode(store.get(id, { session: "never-seen" }), "NOT_FOUND");
    expect(await store.cleanupSession("s1")).toBe(1);
    expect(await readdir(join(root, "refs", "s1", id.slice(0, 2)))).toEqual([]); // its shard directory stays, empty
    await expectCode(store.listReferences("s1"), "UNKNOWN_SESSION");
    expect(await store.listSessions()).toEqual([]);
  });

  it("a directory where a blob should be is a clear IO_ERROR, never a crash", async () => {
    const bytes = new TextEncoder().encode("shadowed by a directory");
    const id = sha256Hex(bytes);
    await mkdir(join(shardDir(root, "blobs", id), id), { recursive: true });
    const error = await expectCode(store.get(id), "IO_ERROR");
    expect(error.message).toMatch(/is a directory, but the store expects a file/);
    expect(error.message).toContain(join(shardDir(root, "blobs", id), id));
    await expectCode(driver.head(blobKey(id)), "IO_ERROR");
    expect((await store.verify()).ok).toBe(true); // nothing stored there to check
  });

  it("a file where a directory should be is a clear IO_ERROR naming it", async () => {
    await driver.put("x/file", new TextEncoder().encode("a file"));
    const error = await expectCode(driver.put("x/file/child", new TextEncoder().encode("under a file")), "IO_ERROR");
    expect(error.message).toMatch(/is a file, but the store expects a directory/);
    expect(await driver.get("x/file/child")).toBeUndefined();
    expect(await driver.head("x/file/child")).toBeUndefined();

    const fileRoot = join(parent, "not-a-dir");
    await writeFile(fileRoot, "plain file");
    const onFile = new ArtifactStore({ driver: new FsDriver({ root: fileRoot }) });
    const rootError = await expectCode(onFile.put("x"), "IO_ERROR");
    expect(rootError.message).toContain(fileRoot);
  });

  it("keys and sessions that try to leave the root never touch anything outside it", async () => {
    await store.put("inside", { session: "s" });
    await writeFile(join(parent, "x"), "outside");
    const before = await snapshot(parent);
    const data = new TextEncoder().encode("escape");
    for (const key of [
      "../x",
      "a/../../x",
      "blobs/../../x",
      "refs/../../x",
      "/etc/x",
      "a//b",
      "./x",
      "a\\..\\..\\x",
      "x\u0000",
    ]) {
      for (const op of [
        () => driver.put(key, data),
        () => driver.putIfAbsent(key, data),
        () => driver.get(key),
        () => driver.head(key),
        () => driver.delete(key),
        async () => driver.uri(key),
      ]) {
        await expectCode(op(), "INVALID_INPUT");
      }
    }
    for (const prefix of ["../", "a/../", "/etc", "..//"]) {
      await expectCode(
        (async () => {
          for await (const _ of driver.list(prefix)) void _;
        })(),
        "INVALID_INPUT",
      );
    }
    for (const session of ["../x", "..", "a/b", "../../etc"])
      await expectCode(store.put("escape", { session }), "INVALID_INPUT");
    expect(await snapshot(parent)).toEqual(before); // the store included: every attempt was refused before any I/O
    expect(await readFile(join(parent, "x"), "utf8")).toBe("outside");
  });

  it("reserved names (temp/trash prefixes, .gz blobs) and over-long names are refused with INVALID_INPUT", async () => {
    const data = new TextEncoder().encode("x");
    for (const key of ["a/.tmp-1-2-3", ".trash-x", `blobs/sha256/ab/cd/${"a".repeat(64)}.gz`]) {
      const error = await expectCode(driver.put(key, data), "INVALID_INPUT");
      expect(error.message).toMatch(/reserved/);
    }
    const long = await expectCode(driver.put(`k/${"n".repeat(300)}`, data), "INVALID_INPUT");
    expect(long.message).toMatch(/too long/);
  });

  it("refuses bad options with CONFIG_INVALID", () => {
    for (const options of [
      { root: "" },
      { root: "a\u0000b" },
      { root: "x", gzp: true },
      { root: "x", gzip: "yes" },
      {},
      { root: 5 },
    ]) {
      let caught: unknown;
      try {
        new FsDriver(options as never);
      } catch (error) {
        caught = error;
      }
      expect(isArefError(caught) && caught.code, JSON.stringify(options)).toBe("CONFIG_INVALID");
      expect((caught as Error).message).toMatch(/invalid FsDriver options/);
    }
  });

  it("conditional delete keeps a file whose time a concurrent re-use refreshed: after both, the file always exists", async () => {
    const data = new TextEncoder().encode("re-used while gc deletes it");
    const keys = Array.from({ length: 200 }, (_, i) => `race/k${i}`);
    const old = new Date(Date.now() - 3_600_000);
    for (const key of keys) {
      await driver.putIfAbsent(key, data);
      await utimes(join(root, key), old, old);
    }
    const cutoff = new Date(Date.now() - 1_800_000);
    const outcomes = await Promise.all(
      keys.map(async (key, i) => {
        const other = new FsDriver({ root }); // another writer
        const remove = () => driver.delete(key, { ifUnmodifiedSince: cutoff });
        const reuse = () => other.putIfAbsent(key, data);
        let deleted: boolean;
        let put: { created: boolean };
        // Half start the delete first, half the re-use: both orders must keep the value.
        if (i % 2 === 0) [deleted, put] = await Promise.all([remove(), reuse()]);
        else [put, deleted] = await Promise.all([reuse(), remove()]);
        return { key, deleted, created: put.created, exists: (await driver.get(key)) !== undefined };
      }),
    );
    // Whichever came first, the re-used value survives: either the refresh made the
    // delete keep it, or the delete came first and the put stored it again.
    expect(outcomes.filter((o) => !o.exists)).toEqual([]);
    expect(await readdir(join(root, "race"))).toHaveLength(keys.length); // no trash left behind
  });
});
