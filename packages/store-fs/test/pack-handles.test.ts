import { type FileHandle, mkdir, readdir, readlink, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { blobKey, sha256Hex } from "@artifact-refs/store/internal";
import { generatedLog } from "@artifact-refs/store/testing";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PACK_HANDLE_IDLE_MS, PACK_HANDLES_MAX, PackHandles } from "../src/pack-handles.js";
import { Packs } from "../src/packs.js";
import { tempRoot } from "./helpers.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The files under `dir` this process has open right now (from /proc/self/fd). */
async function openUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const fd of await readdir("/proc/self/fd")) {
    const target = await readlink(join("/proc/self/fd", fd)).catch(() => "");
    if (target.startsWith(dir)) out.push(target);
  }
  return out.sort();
}

describe("fs packs: open pack files kept between chunk reads", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let driver: FsDriver;
  let store: ArtifactStore;

  beforeEach(async () => {
    ({ root, cleanup } = await tempRoot());
    driver = new FsDriver({ root });
    store = new ArtifactStore({ driver, gcGraceMs: 0 });
  });
  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  const chunkIds = async (id: string) => (await store.chunks(id))!.chunks.map((c) => c.id);

  it("reading every chunk of two packed artifacts, interleaved, opens each pack once; bytes are right", async () => {
    const a = await store.put(bytes(generatedLog(60_000, 1)), { session: "s" });
    const b = await store.put(bytes(generatedLog(60_000, 2)), { session: "s" });
    const idsA = await chunkIds(a.id);
    const idsB = (await chunkIds(b.id)).filter((id) => !idsA.includes(id));
    expect(idsA.length + idsB.length).toBeGreaterThan(64);
    const packs = new Packs(root, false); // a reader that did not write them (another process)
    try {
      // Alternating between the two packs (each is used at every step, so none goes idle meanwhile), twice.
      for (const _pass of [0, 1]) {
        for (let i = 0; i < Math.max(idsA.length, idsB.length); i++) {
          for (const id of [idsA[i], idsB[i]]) {
            if (id === undefined) continue;
            const got = await packs.read(id);
            expect(got && sha256Hex(got)).toBe(id);
          }
        }
      }
      expect(packs.handles.opens).toBe(2);
      expect(await openUnder(root)).toHaveLength(2);
    } finally {
      await packs.close();
    }
    expect(await openUnder(root)).toEqual([]); // closed on close, without waiting for idle
  });

  it("a getStream keeps the pack open while reading, and closes it once idle (no fd left)", async () => {
    const put = await store.put(bytes(generatedLog(80_000)), { session: "s" });
    const reader = new ArtifactStore({ driver: new FsDriver({ root }) });
    expect(await openUnder(root)).toEqual([]);
    const chunks: Uint8Array[] = [];
    for await (const piece of await reader.getStream(put.id)) chunks.push(piece);
    expect(sha256Hex(Buffer.concat(chunks))).toBe(put.id);
    const open = await openUnder(root);
    expect(open).toHaveLength(1); // the one pack, still open: chunk reads did not close it
    expect(open[0]).toMatch(/\.pack$/);
    await pause(PACK_HANDLE_IDLE_MS * 2);
    expect(await openUnder(root)).toEqual([]);
    await reader.close();
  });

  it("a key another driver deletes reads as missing through a kept handle; its pack's other keys still read", async () => {
    const put = await store.put(bytes(generatedLog(60_000)), { session: "s" });
    const [first, second] = await chunkIds(put.id);
    const packs = new Packs(root, false);
    try {
      expect(await packs.read(first!)).toBeDefined(); // the pack is open now
      expect(await driver.delete(blobKey(first!))).toBe(true); // another driver: logged dead, pack kept
      expect(await packs.read(first!)).toBeUndefined();
      expect(sha256Hex((await packs.read(second!))!)).toBe(second);
      expect(packs.handles.opens).toBe(1);
    } finally {
      await packs.close();
    }
  });

  it("a pack another driver's gc removed gives no bytes through a kept handle, and the handle is closed", async () => {
    const put = await store.put(bytes(generatedLog(60_000)), { session: "s" });
    const ids = await chunkIds(put.id);
    const packs = new Packs(root, false);
    try {
      expect(await packs.read(ids[0]!)).toBeDefined();
      expect(await openUnder(root)).toHaveLength(1);
      await store.cleanupSession("s");
      await pause(20);
      await store.gc({ graceMs: 0 });
      expect((await readdir(join(root, "~packs"))).filter((n) => n.endsWith(".pack"))).toEqual([]);
      // Its dead log went with it, so this reader never saw the keys die: the unlinked pack tells it.
      for (const id of ids.slice(0, 5)) expect(await packs.read(id)).toBeUndefined();
      expect(packs.handles.size).toBe(0);
      expect(await openUnder(root)).toEqual([]);
    } finally {
      await packs.close();
    }
  });

  it("keeps at most PACK_HANDLES_MAX files open, least recently used closed first; a missing file is not cached", async () => {
    const handles = new PackHandles();
    const paths: string[] = [];
    await mkdir(root, { recursive: true });
    for (let i = 0; i < PACK_HANDLES_MAX + 8; i++) {
      const path = join(root, `f${i}.pack`);
      await writeFile(path, `file ${i}`);
      paths.push(path);
    }
    const readAll = (h: FileHandle) =>
      h.read(Buffer.alloc(16), 0, 16, 0).then((r) => r.buffer.toString("latin1", 0, r.bytesRead));
    for (const [i, path] of paths.entries()) expect(await handles.use(path, readAll)).toBe(`file ${i}`);
    expect(handles.size).toBe(PACK_HANDLES_MAX);
    expect(handles.opens).toBe(paths.length);
    await pause(10);
    expect(await openUnder(root)).toHaveLength(PACK_HANDLES_MAX);
    // The most recent ones are kept: using them again opens nothing.
    for (const path of paths.slice(-PACK_HANDLES_MAX)) await handles.use(path, readAll);
    expect(handles.opens).toBe(paths.length);
    expect(await handles.use(join(root, "missing.pack"), readAll)).toBeUndefined();
    expect(handles.size).toBe(PACK_HANDLES_MAX);
    await handles.closeAll();
    expect(await openUnder(root)).toEqual([]);
  });

  it("a kept handle of a file unlinked since (another process removed the pack) reads as gone and is closed", async () => {
    // Through a driver the packs directory's changed time already drops such a pack before the read (the gc
    // test above); this is the guard for a directory time too coarse to show the change: the link count.
    const handles = new PackHandles();
    await mkdir(root, { recursive: true });
    const path = join(root, "p.pack");
    await writeFile(path, "packed bytes");
    const readAll = (h: FileHandle) =>
      h.read(Buffer.alloc(32), 0, 32, 0).then((r) => r.buffer.toString("latin1", 0, r.bytesRead));
    expect(await handles.use(path, readAll)).toBe("packed bytes");
    await unlink(path);
    expect(await handles.use(path, readAll)).toBeUndefined();
    expect(handles.size).toBe(0);
    await pause(10);
    expect(await openUnder(root)).toEqual([]);
    await writeFile(path, "a new file at that name"); // never the case for packs (unique names), still read right
    expect(await handles.use(path, readAll)).toBe("a new file at that name");
    expect(handles.opens).toBe(2);
    await handles.closeAll();
  });
});
