import { readFile, readdir, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { blobKey, sha256Hex } from "@artifact-refs/store/internal";
import { generatedLog } from "@artifact-refs/store/testing";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempRoot } from "./helpers.js";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A real fs driver that counts its reads: `get` calls (blob keys only) and `getMany` calls. */
class CountingFsDriver extends FsDriver {
  blobGets = 0;
  manyCalls = 0;
  override async get(key: string) {
    if (key.startsWith("blobs/")) this.blobGets++;
    return super.get(key);
  }
  override async getMany(keys: readonly string[]) {
    this.manyCalls++;
    return super.getMany(keys);
  }
}

async function collect(stream: AsyncIterable<Uint8Array>): Promise<{ yielded: Uint8Array[]; error: unknown }> {
  const yielded: Uint8Array[] = [];
  try {
    for await (const piece of stream) yielded.push(Uint8Array.from(piece));
  } catch (error) {
    return { yielded, error };
  }
  return { yielded, error: undefined };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const concat = (parts: readonly Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));

for (const gzip of [false, true]) {
  describe(`fs: a full read of a packed chunked artifact reads runs of chunks at once${gzip ? " (gzip)" : ""}`, () => {
    let root: string;
    let cleanup: () => Promise<void>;
    let id: string;
    let chunkIds: string[];
    let originals: Uint8Array[];

    beforeEach(async () => {
      ({ root, cleanup } = await tempRoot());
      const store = new ArtifactStore({ driver: new FsDriver({ root, gzip }) });
      id = (await store.put(bytes(generatedLog(80_000, 3)), { session: "s" })).id;
      chunkIds = (await store.chunks(id))!.chunks.map((c) => c.id);
      expect(chunkIds.length).toBeGreaterThan(48);
      await store.close();
      const reader = new FsDriver({ root, gzip });
      originals = (await Promise.all(chunkIds.map((c) => reader.get(blobKey(c))))) as Uint8Array[];
      await reader.close();
    });
    afterEach(async () => cleanup());

    const open = async (driver: FsDriver) => {
      const store = new ArtifactStore({ driver });
      return { store, artifact: (await store.chunks(id))! };
    };

    const packFiles = async () => {
      const dir = join(root, "~packs");
      return (await readdir(dir)).filter((n) => n.endsWith(".pack")).map((n) => join(dir, n));
    };

    it("one getMany per 16 chunks and no get per chunk; one get per chunk without getMany; same bytes", async () => {
      const driver = new CountingFsDriver({ root, gzip });
      const { store, artifact } = await open(driver);
      driver.blobGets = 0;
      const { yielded, error } = await collect(artifact.stream());
      expect(error).toBeUndefined();
      expect(same(concat(yielded), concat(originals))).toBe(true);
      // Without gzip the chunks of a run packed side by side are views of one read, yielded as one piece
      // (a run spanning packs gives a piece per pack); with gzip each chunk is inflated apart: one piece each.
      if (gzip) expect(yielded.length).toBe(chunkIds.length);
      else expect(yielded.length).toBeLessThan(chunkIds.length / 4);
      expect(driver.manyCalls).toBe(Math.ceil(chunkIds.length / 16));
      expect(driver.blobGets).toBe(0);
      await store.close();

      const plain = new CountingFsDriver({ root, gzip });
      Object.defineProperty(plain, "getMany", { value: undefined });
      const other = await open(plain);
      plain.blobGets = 0;
      expect((await collect(other.artifact.stream())).error).toBeUndefined();
      expect(plain.blobGets).toBe(chunkIds.length);
      await other.store.close();
    });

    it("a chunk deleted from its pack: the chunks before it are yielded, then INTEGRITY naming it", async () => {
      const driver = new FsDriver({ root, gzip });
      const bad = 21; // inside the second run of 16
      expect(await driver.delete(blobKey(chunkIds[bad]!))).toBe(true);
      const { store, artifact } = await open(driver);
      const { yielded, error } = await collect(artifact.stream());
      expect(error).toMatchObject({
        code: "INTEGRITY",
        message: expect.stringContaining(`chunk ${bad + 1} of ${chunkIds.length}`),
        details: { chunk_id: chunkIds[bad] },
      });
      expect(same(concat(yielded), concat(originals.slice(0, bad)))).toBe(true);
      await store.close();
    });

    it("a torn pack is INTEGRITY, never wrong bytes: read by a driver that knew its index, and by a fresh one", async () => {
      const driver = new FsDriver({ root, gzip });
      const { store, artifact } = await open(driver);
      expect((await collect(artifact.stream())).error).toBeUndefined(); // the index is known now
      const packs = await packFiles();
      for (const pack of packs) await truncate(pack, Math.floor((await stat(pack)).size / 2));
      for (const reader of [artifact, (await open(new FsDriver({ root, gzip }))).artifact]) {
        const { yielded, error } = await collect(reader.stream());
        expect(error).toMatchObject({ code: "INTEGRITY" });
        const got = concat(yielded);
        expect(got.byteLength).toBeLessThan(concat(originals).byteLength);
        expect(same(got, concat(originals).subarray(0, got.byteLength))).toBe(true);
      }
      await store.close();
    });

    if (!gzip)
      it("a chunk damaged in its pack: INTEGRITY naming it; once an intact copy is stored again, the read is whole", async () => {
        const [pack] = await packFiles();
        const raw = await readFile(pack!);
        const bad = 30;
        const at = raw.indexOf(Buffer.from(originals[bad]!));
        expect(at).toBeGreaterThanOrEqual(0);
        raw[at + 100] = raw[at + 100]! ^ 1;
        await writeFile(pack!, raw);
        const driver = new FsDriver({ root });
        const { store, artifact } = await open(driver);
        const first = await collect(artifact.stream());
        expect(first.error).toMatchObject({ code: "INTEGRITY", details: { chunk_id: chunkIds[bad] } });
        expect(same(concat(first.yielded), concat(originals.slice(0, bad)))).toBe(true);
        await driver.put(blobKey(chunkIds[bad]!), originals[bad]!); // a loose copy: what `get` reads first
        const again = await collect(artifact.stream());
        expect(again.error).toBeUndefined();
        expect(sha256Hex(Buffer.concat(again.yielded))).toBe(id);
        await store.close();
      });
  });
}
