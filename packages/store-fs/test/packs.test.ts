import { spawn } from "node:child_process";
import { appendFile, mkdir, open, readFile, readdir, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ArtifactStore } from "@artifact-refs/store";
import { blobKey, sha256Hex } from "@artifact-refs/store/internal";
import { generatedLog } from "@artifact-refs/store/testing";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, looseOnly, tempRoot } from "./helpers.js";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Every file under `dir`, '/'-separated paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      if (e.isDirectory()) await visit(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)).split(sep).join("/"));
    }
  };
  await visit(dir);
  return out.sort();
}

const packsOf = async (root: string) => (await filesUnder(root)).filter((f) => f.endsWith(".pack"));

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("fs packs: a chunked put's chunks in a few pack files", () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let driver: FsDriver;
  let store: ArtifactStore;
  const log = bytes(generatedLog(140_000)); // ~8.6 MB: ~130 chunks

  beforeEach(async () => {
    ({ root, cleanup } = await tempRoot());
    driver = new FsDriver({ root });
    store = new ArtifactStore({ driver, gcGraceMs: 0 });
  });
  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  it("writes few files, lists every chunk once, and reads every chunk back (also through a fresh driver)", async () => {
    const put = await store.put(log, { session: "s", type: "log" });
    const chunked = (await store.chunks(put.id))!;
    expect(chunked.chunks.length).toBeGreaterThan(80);
    const files = await filesUnder(root);
    // layout.json, one pack, the manifest, the record, the reference: not a file per chunk.
    expect(files.length).toBeLessThanOrEqual(6);
    expect(await packsOf(root)).toHaveLength(1);
    const listed = new Map<string, number>();
    for await (const e of driver.list("blobs/")) listed.set(e.key, (listed.get(e.key) ?? 0) + 1);
    for (const c of chunked.chunks) expect(listed.get(blobKey(c.id))).toBe(1);
    expect([...listed.values()].every((n) => n === 1)).toBe(true);
    const fresh = new ArtifactStore({ driver: new FsDriver({ root }) });
    const again = (await fresh.chunks(put.id))!;
    for (let i = 0; i < again.chunks.length; i++) expect(sha256Hex(await again.read(i))).toBe(again.chunks[i]!.id);
    expect(sha256Hex(await fresh.get(put.id))).toBe(put.id);
    // The packs directory is not a key space: a listing of everything shows keys only.
    for await (const e of driver.list("")) expect(e.key.startsWith("~")).toBe(false);
    const head = await driver.head(blobKey(chunked.chunks[5]!.id));
    expect(head?.size).toBe(chunked.chunks[5]!.size);
  });

  it("gathered pack writes (several chunks per write) store the same chunks as a write per chunk, each reading back", async () => {
    const put = await store.put(log, { session: "s", type: "log" });
    const listing = async (d: FsDriver) => {
      const out: string[] = [];
      for await (const e of d.list("blobs/")) out.push(`${e.key} ${e.size}`);
      return out.sort();
    };
    const other = await tempRoot();
    process.env.AREF_STASH_GATHER = "off";
    try {
      const single = new ArtifactStore({ driver: new FsDriver({ root: other.root }) });
      expect((await single.put(log, { session: "s", type: "log" })).id).toBe(put.id);
      await single.close();
      expect(await listing(new FsDriver({ root }))).toEqual(await listing(new FsDriver({ root: other.root })));
    } finally {
      delete process.env.AREF_STASH_GATHER;
      await other.cleanup();
    }
    const fresh = new FsDriver({ root });
    const chunked = (await store.chunks(put.id))!;
    for (const c of chunked.chunks) expect(sha256Hex((await fresh.get(blobKey(c.id)))!)).toBe(c.id);
    const all = new ArtifactStore({ driver: fresh });
    expect(sha256Hex(await all.get(put.id))).toBe(put.id);
    await all.close();
  });

  it.each([
    ["held back (a batch too small for a pack: loose files at commit)", 12],
    ["in a pack (queued, gathered writes)", 100],
  ])("once `flushed` resolves the batch holds none of the caller's bytes: %s", async (_, count) => {
    // A chunked put hands the batch views of pooled buffers and reuses a buffer once `flushed` resolves.
    const pool = new Uint8Array(count * 40_000);
    for (let i = 0; i < pool.length; i++) pool[i] = (i * 2654435761) >>> 24;
    const blobs = Array.from({ length: count }, (_, i) => pool.subarray(i * 40_000, (i + 1) * 40_000));
    const ids = blobs.map((b) => sha256Hex(b));
    const batch = driver.openBatch();
    await Promise.all(blobs.map((b, i) => batch.add(blobKey(ids[i]!), b)));
    await batch.flushed();
    pool.fill(0); // the caller reuses its buffer
    await batch.commit();
    const fresh = new FsDriver({ root });
    for (const id of ids) expect(sha256Hex((await fresh.get(blobKey(id)))!)).toBe(id);
    expect(await packsOf(root)).toHaveLength(count > 31 ? 1 : 0);
  });

  it("a put over 64 MiB spans several packs (each published when full); every chunk reads", async () => {
    const big = bytes(generatedLog(1_500_000)); // ~76 MB
    const put = await store.putStream(
      (async function* () {
        for (let at = 0; at < big.length; at += 1 << 20) yield big.subarray(at, at + (1 << 20));
      })(),
      { session: "s" },
    );
    expect(put.id).toBe(sha256Hex(big));
    const packs = await packsOf(root);
    expect(packs).toHaveLength(2);
    for (const pack of packs) expect((await stat(join(root, pack))).size).toBeLessThan(64 * 1024 * 1024 + 300_000);
    const fresh = new ArtifactStore({ driver: new FsDriver({ root }) });
    const chunks = (await fresh.chunks(put.id))!;
    for (let i = 0; i < chunks.chunks.length; i++) expect(sha256Hex(await chunks.read(i))).toBe(chunks.chunks[i]!.id);
  });

  it("gc after dropping a version keeps every chunk the other needs, and removes a pack once all its chunks are dead", async () => {
    const first = await store.put(log, { session: "v1" });
    const lines = generatedLog(140_000).split("\n");
    lines[70_000] = "2026-11-23T10:00 ERROR the one changed line";
    const second = await store.put(lines.join("\n"), { session: "v2" });
    expect(await packsOf(root)).toHaveLength(1); // the second version's few new chunks are loose files
    await store.cleanupSession("v1");
    await pause(20);
    const report = await store.gc({ graceMs: 0 });
    expect(report.blobs_swept).toBeGreaterThan(0);
    expect(await store.has(first.id)).toBe(false);
    expect(sha256Hex(await store.get(second.id))).toBe(second.id);
    expect((await store.verify()).ok).toBe(true);
    expect(await packsOf(root)).toHaveLength(1); // most of its chunks are still needed
    await store.cleanupSession("v2");
    await pause(20);
    await store.gc({ graceMs: 0 });
    expect(await filesUnder(join(root, "~packs"))).toEqual([]); // pack and dead log removed
    let blobs = 0;
    for await (const _ of driver.list("blobs/")) blobs++;
    expect(blobs).toBe(0);
    // Stored again after the sweep: a new pack, readable.
    const again = await store.put(log, { session: "v3" });
    expect(sha256Hex(await store.get(again.id))).toBe(again.id);
  });

  it("verify reports a corrupt packed chunk and the artifact it breaks; stashing again heals it", async () => {
    const put = await store.put(log, { session: "s" });
    const [pack] = await packsOf(root);
    const handle = await open(join(root, pack!), "r+");
    await handle.write(Buffer.from("XXXX"), 0, 4, 1000); // inside the first chunk of the pack
    await handle.close();
    await expect(store.get(put.id)).rejects.toMatchObject({ code: "INTEGRITY" });
    const report = await store.verify();
    const problem = report.problems.find((p) => p.kind === "integrity");
    expect(problem?.message).toContain(put.shortRef.slice(4, 16));
    await store.put(log); // the damaged chunk is written again (a loose file, read first)
    expect(sha256Hex(await store.get(put.id))).toBe(put.id);
    expect((await store.verify()).ok).toBe(true);
  });

  it("a pack whose index is damaged is not read: its chunks are missing (INTEGRITY), never wrong bytes", async () => {
    const put = await store.put(log, { session: "s" });
    const [pack] = await packsOf(root);
    const size = (await stat(join(root, pack!))).size;
    const handle = await open(join(root, pack!), "r+");
    await handle.write(Buffer.from([0xff]), 0, 1, size - 100); // in the index
    await handle.close();
    const fresh = new ArtifactStore({ driver: new FsDriver({ root }) });
    await expect(fresh.get(put.id)).rejects.toMatchObject({ code: "INTEGRITY" });
    const report = await fresh.verify();
    expect(report.problems.some((p) => p.kind === "missing_blob" && p.artifact_id === put.id)).toBe(true);
  });

  it("a store with loose chunks (written before packs) reads unchanged, and a new put dedupes against them", async () => {
    const old = new ArtifactStore({ driver: looseOnly(new FsDriver({ root })) });
    const put = await old.put(log, { session: "s" });
    const looseFiles = (await filesUnder(join(root, "blobs"))).length;
    expect(looseFiles).toBeGreaterThan(80);
    expect(sha256Hex(await store.get(put.id))).toBe(put.id);
    const again = await store.put(log, { session: "t" });
    expect(again.created).toBe(false);
    expect(await packsOf(root)).toEqual([]); // every chunk was there already
    expect((await store.verify()).ok).toBe(true);
  });

  it("two writers packing the same chunks at once: both read, and gc still removes both packs in the end", async () => {
    const other = new ArtifactStore({ driver: new FsDriver({ root }), gcGraceMs: 0 });
    const [a, b] = await Promise.all([store.put(log, { session: "a" }), other.put(log, { session: "b" })]);
    expect(a.id).toBe(b.id);
    expect((await packsOf(root)).length).toBeGreaterThanOrEqual(1);
    expect(sha256Hex(await other.get(a.id))).toBe(a.id);
    await store.cleanupSession("a");
    await pause(20);
    await store.gc({ graceMs: 0 });
    expect(sha256Hex(await other.get(a.id))).toBe(a.id);
    await other.cleanupSession("b");
    await pause(20);
    await other.gc({ graceMs: 0 });
    expect(await packsOf(root)).toEqual([]);
  });

  it("conditional delete of a packed key: kept when its pack was refreshed after the cutoff, deleted when older", async () => {
    await store.put(log);
    const chunked = (await store.chunks(sha256Hex(log)))!;
    const [pack] = await packsOf(root);
    const key = blobKey(chunked.chunks[0]!.id);
    const old = new Date(Date.now() - 60_000);
    await utimes(join(root, pack!), old, old);
    expect(await driver.delete(key, { ifUnmodifiedSince: new Date(old.getTime() - 1000) })).toBe(false);
    expect(await driver.head(key)).toBeDefined();
    // A re-use refreshes the pack's time: a gc with a cutoff before it keeps the key.
    expect((await driver.putIfAbsent(key, (await driver.get(key))!)).created).toBe(false);
    expect(await driver.delete(key, { ifUnmodifiedSince: new Date(Date.now() - 10_000) })).toBe(false);
    expect(await driver.get(key)).toBeDefined();
    expect(await driver.delete(key, { ifUnmodifiedSince: new Date(Date.now() + 1000) })).toBe(true);
    expect(await driver.get(key)).toBeUndefined();
    expect(await driver.head(key)).toBeUndefined();
    // Dead means gone for good in that pack: a put writes it anew (a loose file here).
    const chunk = await new ArtifactStore({ driver: new FsDriver({ root }) }).get(sha256Hex(log)).catch((e) => e);
    expect(chunk).toMatchObject({ code: "INTEGRITY" });
    await store.put(log);
    expect(sha256Hex(await store.get(sha256Hex(log)))).toBe(sha256Hex(log));
  });

  it("a gc racing a re-use of packed chunks: a re-use told 'already stored' always finds the chunk afterwards", async () => {
    await store.put(log);
    const chunked = (await store.chunks(sha256Hex(log)))!;
    const [pack] = await packsOf(root);
    const gc = new FsDriver({ root });
    const writer = new FsDriver({ root });
    let kept = 0;
    let deleted = 0;
    let round = 0;
    for (const chunk of [...chunked.chunks, ...chunked.chunks]) {
      const key = blobKey(chunk.id);
      const data = (await writer.get(key))!;
      const old = new Date(Date.now() - 60_000);
      // A candidate for gc, unless re-used now (the pack is gone once all its chunks died: then loose files race).
      await utimes(join(root, pack!), old, old).catch(() => undefined);
      // The re-use starts a varying number of event-loop turns after the gc's delete: every interleaving of
      // the two (log `?`, read the pack's time, log the outcome / check, touch, check again) comes up.
      const turns = round++ % 12;
      const [removed, reused] = await Promise.all([
        gc.delete(key, { ifUnmodifiedSince: new Date(Date.now() - 1000) }),
        (async () => {
          for (let t = 0; t < turns; t++) await new Promise((r) => setImmediate(r));
          return writer.putIfAbsent(key, data);
        })(),
      ]);
      const after = await new FsDriver({ root }).get(key);
      // Whatever the interleaving: a put that was told the chunk exists, or that wrote it, finds it.
      expect(after && sha256Hex(after)).toBe(chunk.id);
      if (removed) deleted++;
      if (!reused.created) kept++;
    }
    expect(kept + deleted).toBeGreaterThan(0);
  });

  it("a key a crashed gc left pending still reads, but a put never counts it as stored (writes it anew)", async () => {
    await store.put(log);
    const chunked = (await store.chunks(sha256Hex(log)))!;
    const [pack] = await packsOf(root);
    const id = chunked.chunks[1]!.id;
    // The gc logged "deciding" and died before its outcome.
    await appendFile(join(root, pack!.replace(/\.pack$/, ".dead")), `?${id}\n`);
    await appendFile(join(root, pack!.replace(/\.pack$/, ".dead")), `-${"0".repeat(30)}`); // a torn line: ignored
    const fresh = new FsDriver({ root });
    expect(sha256Hex((await fresh.get(blobKey(id)))!)).toBe(id);
    expect((await fresh.putIfAbsent(blobKey(id), (await fresh.get(blobKey(id)))!)).created).toBe(true);
    expect((await filesUnder(join(root, "blobs"))).some((f) => f.endsWith(id))).toBe(true);
  });

  it("a reader that loaded the index of a quiet packs directory sees a pack another driver publishes later", async () => {
    await store.put(log, { session: "s" });
    const old = new Date(Date.now() - 10_000);
    await utimes(join(root, "~packs"), old, old); // quiet for 10 s: the reader may trust it while unchanged
    const reader = new FsDriver({ root });
    expect(await reader.get(blobKey("ab".repeat(32)))).toBeUndefined(); // loads the index
    const other = bytes(generatedLog(60_000, 9));
    const put = await new ArtifactStore({ driver: new FsDriver({ root }) }).put(other, { session: "t" });
    expect(await packsOf(root)).toHaveLength(2);
    const chunks = (await new ArtifactStore({ driver: reader }).chunks(put.id))!;
    for (let i = 0; i < chunks.chunks.length; i++) expect(sha256Hex(await chunks.read(i))).toBe(chunks.chunks[i]!.id);
  });

  it("another driver's removed pack reads as missing, not as an error", async () => {
    const put = await store.put(log, { session: "s" });
    const reader = new FsDriver({ root });
    const key = blobKey((await store.chunks(put.id))!.chunks[0]!.id);
    expect(await reader.get(key)).toBeDefined(); // its index is loaded now
    await store.cleanupSession("s");
    await pause(20);
    await store.gc({ graceMs: 0 });
    expect(await packsOf(root)).toEqual([]);
    expect(await reader.get(key)).toBeUndefined();
    expect(await reader.head(key)).toBeUndefined();
  });

  it("with gzip, packed chunks are stored compressed and read and list at their own size", async () => {
    const gz = new ArtifactStore({ driver: new FsDriver({ root, gzip: true }) });
    const put = await gz.put(log, { session: "s" });
    const [pack] = await packsOf(root);
    expect((await stat(join(root, pack!))).size).toBeLessThan(log.byteLength / 2);
    expect(sha256Hex(await store.get(put.id))).toBe(put.id); // a driver without gzip reads them too
    let total = 0;
    const manifest = (await gz.chunks(put.id))!;
    const ids = new Set(manifest.chunks.map((c) => blobKey(c.id)));
    for await (const e of driver.list("blobs/")) if (ids.has(e.key)) total += e.size;
    expect(total).toBe(log.byteLength);
  });

  it("a crash mid-pack leaves nothing live: only a temp file, which gc removes; the retry succeeds", async () => {
    assertBuilt();
    const script = `
      import { ArtifactStore } from "@artifact-refs/store";
      import { FsDriver } from "@artifact-refs/store-fs";
      const store = new ArtifactStore({ driver: new FsDriver({ root: process.argv[1] }) });
      const piece = (i) => Array.from({ length: 1000 }, (_, j) => \`2026-11-23T10:00 INFO line \${i * 1000 + j} of a log being stashed\\n\`).join("");
      async function* slow() {
        for (let i = 0; i < 300; i++) {
          yield Buffer.from(piece(i));
          if (i === 120) { process.stdout.write("mid\\n"); setInterval(() => {}, 1000); await new Promise(() => {}); }
        }
      }
      await store.putStream(slow(), { session: "s" });
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script, root], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => d.toString().includes("mid") && resolve());
      child.once("exit", (code) => reject(new Error(`child exited early (${code})`)));
    });
    child.removeAllListeners("exit");
    // Kill it once its pack is being written (a temp file in ~packs), however loaded the machine is.
    for (let waited = 0; waited < 10_000; waited += 50) {
      if ((await filesUnder(join(root, "~packs"))).some((f) => f.startsWith(".tmp-"))) break;
      await pause(50);
    }
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    const packDir = await filesUnder(join(root, "~packs"));
    expect(packDir.some((f) => f.startsWith(".tmp-"))).toBe(true); // the pack being written
    expect(packDir.filter((f) => f.endsWith(".pack"))).toEqual([]);
    expect(await store.listSessions()).toEqual([]);
    let blobs = 0;
    for await (const _ of driver.list("blobs/")) blobs++;
    expect(blobs).toBe(0);
    await pause(1100); // temp files younger than 1 s are never swept
    const report = await store.gc({ graceMs: 0 });
    expect(report.temp_files_removed).toBeGreaterThanOrEqual(1);
    expect(await filesUnder(join(root, "~packs"))).toEqual([]);
    const text = generatedLog(20_000);
    const retry = await store.put(text, { session: "s" });
    expect(sha256Hex(await store.get(retry.id))).toBe(retry.id);
  });

  it("a link planted where the packs directory belongs: a big put fails with IO_ERROR and writes nothing through it", async () => {
    await store.put("small");
    const outside = join(root, "..", "outside");
    await mkdir(outside);
    await symlink(outside, join(root, "~packs"));
    await expect(store.put(log, { session: "s" })).rejects.toMatchObject({ code: "IO_ERROR" });
    expect(await readdir(outside)).toEqual([]);
    expect(await store.listSessions()).toEqual([]);
  });

  it("a planted file where the packs directory belongs is a clear IO_ERROR, never followed", async () => {
    await store.put("small");
    await writeFile(join(root, "~packs"), "not a directory");
    const error = await driver.get(blobKey("ab".repeat(32))).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "IO_ERROR", hint: expect.stringContaining("remove it by hand") });
    expect(await readFile(join(root, "~packs"), "utf8")).toBe("not a directory");
  });
});
