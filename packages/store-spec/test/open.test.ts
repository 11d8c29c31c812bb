import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { isArefError } from "@artifact-refs/schema";
import { formatStoreSpec, openDriver, openStore, parseStoreSpec } from "@artifact-refs/store-spec";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

describe("openStore: memory", () => {
  it("memory:<name> opened twice in one process shares its data", async () => {
    const a = await openStore("memory:shared-open-test");
    const b = await openStore("memory:shared-open-test");
    const { id } = await a.put("seen by both", { session: "s" });
    expect(await b.getText(id)).toBe("seen by both");
    expect((await b.listReferences("s")).length).toBe(1);
    expect(a.driver.kind).toBe("memory");
    expect(a.driver.location).toBe("memory:shared-open-test");
  });

  it("memory: without a name is a fresh store every time", async () => {
    const a = await openStore("memory:");
    const b = await openStore("memory:");
    const { id } = await a.put("private");
    expect(await a.has(id)).toBe(true);
    expect(await b.has(id)).toBe(false);
  });

  it("passes store options through", async () => {
    const store = await openStore("memory:", { maxBytes: 8 });
    let caught: unknown;
    try {
      await store.put("more than eight bytes");
    } catch (error) {
      caught = error;
    }
    expect(isArefError(caught) && caught.code).toBe("TOO_LARGE");
  });

  it("refuses a bad spec with CONFIG_INVALID before opening anything", async () => {
    await expect(openStore("gopher://x")).rejects.toMatchObject({ code: "CONFIG_INVALID" });
    await expect(openDriver("")).rejects.toMatchObject({ code: "CONFIG_INVALID" });
  });

  it("validates an object spec too (an unknown kind used to open nothing and return undefined)", async () => {
    const bad = [
      { kind: "bogus" },
      { kind: "fs", root: "" },
      { kind: "fs", root: "/tmp/x", gzip: "yes" },
      { kind: "memory", name: "a/b" },
      { kind: "s3", bucket: "B", prefix: "" },
      { kind: "s3", bucket: "bkt", prefix: "../x" },
      { kind: "s3", bucket: "bkt", prefix: "", endpoint: "ftp://x" },
      null,
    ];
    for (const spec of bad) {
      await expect(openDriver(spec as never), JSON.stringify(spec)).rejects.toMatchObject({
        code: "CONFIG_INVALID",
        message: expect.stringMatching(/invalid store spec/),
      });
    }
    const driver = await openDriver({ kind: "memory", name: "" });
    expect(driver.kind).toBe("memory");
  });
});

describe("openStore: directories", () => {
  let parent: string;
  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), "aref-spec-"));
  });
  afterEach(async () => rm(parent, { recursive: true, force: true }));

  it("a directory spec round-trips through the fs driver and lands on disk", async () => {
    const root = join(parent, "store");
    const store = await openStore(root);
    expect(store.driver.kind).toBe("fs");
    expect(store.driver.location).toBe(root);
    const { id, record } = await store.put("on disk via a spec", { session: "s" });
    expect(record.content_uri).toBe(`file://${root}/blobs/sha256/${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`);
    expect(await readFile(join(root, "blobs", "sha256", id.slice(0, 2), id.slice(2, 4), id), "utf8")).toBe(
      "on disk via a spec",
    );

    // Another store opened from a file:// URL of the same directory sees it.
    const again = await openStore(`file://${root}`);
    expect(await again.getText(id, { session: "s" })).toBe("on disk via a spec");
  });

  it("a relative directory resolves against the given working directory; ?gzip=true compresses blobs", async () => {
    const spec = parseStoreSpec("./zipped?gzip=true", parent);
    const store = await openStore(spec);
    expect(store.driver.location).toBe(join(parent, "zipped"));
    const content = "compress me ".repeat(500);
    const { id } = await store.put(content);
    const dir = join(parent, "zipped", "blobs", "sha256", id.slice(0, 2), id.slice(2, 4));
    expect(await readdir(dir)).toEqual([`${id}.gz`]);
    expect(gunzipSync(await readFile(join(dir, `${id}.gz`))).toString()).toBe(content);
    // The same directory opened without gzip still reads it.
    const plain = await openStore(join(parent, "zipped"));
    expect(await plain.getText(id)).toBe(content);
    expect(relative(parent, plain.driver.location)).toBe("zipped");
  });
});

describe("?maxBytes= in the store spec", () => {
  it("sets the store's per-artifact cap (bytes or KiB/MiB/GiB); an explicit option wins; bad values are CONFIG_INVALID", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aref-spec-max-"));
    try {
      expect(parseStoreSpec(`${dir}?maxBytes=2MiB`)).toMatchObject({ kind: "fs", maxBytes: 2 * 1024 * 1024 });
      expect(parseStoreSpec("s3://bucket-a/p?maxBytes=1000")).toMatchObject({ kind: "s3", maxBytes: 1000 });
      const capped = await openStore(`${dir}?maxBytes=1000`);
      expect(capped.maxBytes).toBe(1000);
      await expect(capped.put("x".repeat(1001))).rejects.toMatchObject({ code: "TOO_LARGE" });
      expect((await openStore(`${dir}?maxBytes=1000`, { maxBytes: 5000 })).maxBytes).toBe(5000);
      expect((await openStore(dir)).maxBytes).toBe(1024 ** 3);
      for (const bad of ["0", "-1", "1.5", "2TB", "x"]) {
        let caught: unknown;
        try {
          parseStoreSpec(`${dir}?maxBytes=${bad}`);
        } catch (error) {
          caught = error;
        }
        expect(isArefError(caught) && caught.code === "CONFIG_INVALID", bad).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("?gcGraceFloorMs= in the store spec", () => {
  it("records the grace floor in a new store's layout.json; gc then refuses a grace below it; bad values are CONFIG_INVALID", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aref-spec-floor-"));
    try {
      expect(parseStoreSpec(`${dir}?gcGraceFloorMs=60000`)).toMatchObject({ kind: "fs", gcGraceFloorMs: 60_000 });
      const s3 = parseStoreSpec("s3://bucket-a/p?gcGraceFloorMs=0");
      expect(s3).toMatchObject({ kind: "s3", gcGraceFloorMs: 0 });
      expect(formatStoreSpec(s3)).toBe("s3://bucket-a/p?gcGraceFloorMs=0");
      const store = await openStore(`${dir}?gcGraceFloorMs=60000`);
      await store.put("first write records the floor");
      expect(JSON.parse(await readFile(join(dir, "layout.json"), "utf8"))).toEqual({
        layout: 1,
        gc_grace_floor_ms: 60_000,
      });
      // Opened again without the option: the store's own floor holds.
      await expect((await openStore(dir)).gc({ graceMs: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      for (const bad of ["-1", "1.5", "10m", "x"]) {
        let caught: unknown;
        try {
          parseStoreSpec(`${dir}?gcGraceFloorMs=${bad}`);
        } catch (error) {
          caught = error;
        }
        expect(isArefError(caught) && caught.code === "CONFIG_INVALID", bad).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
