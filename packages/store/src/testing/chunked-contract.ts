import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArtifactStore } from "../artifact-store.js";
import { SINGLE_BLOB_MAX } from "../chunked.js";
import { CHUNK_MAX } from "../chunking.js";
import { sha256Hex } from "../content.js";
import type { Driver } from "../driver.js";
import { BLOB_PREFIX, blobKey, metaKey } from "../layout.js";
import { ManifestSchema, encodeManifest } from "../manifest.js";
import { expectCode, type DriverFactory, type DriverHarness } from "./harness.js";

/** A deterministic log of `lines` lines (about 60 bytes each). */
export function generatedLog(lines: number, seed = 1): string {
  let x = seed >>> 0 || 1;
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out.push(`2026-11-23T10:${String(i % 60).padStart(2, "0")} INFO worker ${x % 97} step ${i} ${x.toString(16)}\n`);
  }
  return out.join("");
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** A stream of `data` in pieces of uneven sizes (as a socket or a pipe delivers them). */
function piecesOf(data: Uint8Array, error?: Error): Readable {
  async function* gen() {
    let at = 0;
    let i = 0;
    while (at < data.length) {
      const size = [1, 7_000, 65_536, 300_000, 12_345][i++ % 5]!;
      yield Buffer.from(data.subarray(at, at + size));
      at += size;
      if (error && at > data.length / 2) throw error;
    }
  }
  return Readable.from(gen(), { objectMode: false });
}

async function readAll(stream: Readable): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return new Uint8Array(Buffer.concat(parts));
}

async function blobKeys(driver: Driver): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const entry of driver.list(BLOB_PREFIX)) keys.add(entry.key);
  return keys;
}

/**
 * Chunked artifacts (content over 512 KiB) over a driver: layout, streaming, dedupe across
 * versions, gc and verify of chunks, and bad input (over the cap, a failing stream, a failing
 * backend, damaged chunks and manifests). Called by `runStoreContract`.
 */
export function runChunkedContract(name: string, factory: DriverFactory): void {
  describe(`chunked artifacts: ${name}`, () => {
    let harness: DriverHarness;
    let driver: Driver;
    let store: ArtifactStore;
    const log = bytes(generatedLog(40_000)); // ~2.5 MB
    const id = sha256Hex(log);

    beforeEach(async () => {
      harness = await factory();
      driver = harness.driver;
      store = new ArtifactStore({ driver, gcGraceMs: 0, gcGraceFloorMs: 0 });
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup?.();
    });

    it("stores content over 512 KiB in chunks under the id of the whole content, and reads it back byte-exact", async () => {
      const put = await store.put(log, { type: "log", session: "s" });
      expect(put.id).toBe(id);
      expect(put.created).toBe(true);
      expect(put.record.size_bytes).toBe(log.byteLength);
      expect(put.record.chunked?.chunks).toBeGreaterThan(10);
      expect(put.record.encoding).toBe("utf-8");
      expect(await driver.head(blobKey(id))).toBeUndefined(); // no whole-content blob
      const chunked = (await store.chunks(id))!;
      expect(chunked.chunks.length).toBe(put.record.chunked!.chunks);
      for (const c of chunked.chunks) expect(c.size).toBeLessThanOrEqual(CHUNK_MAX);
      expect(chunked.lines).toBe(40_000);
      expect(chunked.chars).toBe(log.byteLength);
      expect(sha256Hex(await store.get(put.shortRef))).toBe(id);
      expect(sha256Hex(await readAll(await store.getStream(put.shortRef, { session: "s" })))).toBe(id);
      expect(await store.has(id)).toBe(true);
      expect(await store.resolve(`art:${id.slice(0, 12)}`)).toBe(id); // found without a session too
      expect((await store.getText(id)).length).toBe(log.byteLength);
    });

    it("keeps content of 512 KiB and less in one blob, byte for byte", async () => {
      const small = log.subarray(0, SINGLE_BLOB_MAX);
      const put = await store.putStream(piecesOf(small), { session: "s" });
      expect(put.record.chunked).toBeUndefined();
      expect(sha256Hex((await driver.get(blobKey(put.id)))!)).toBe(sha256Hex(small));
      expect(sha256Hex(await readAll(await store.getStream(put.id)))).toBe(put.id);
    });

    it("streams a put in uneven pieces to the same id and chunks, storing nothing twice", async () => {
      await store.put(log, { session: "a" });
      const before = await blobKeys(driver);
      const again = await store.putStream(piecesOf(log), { session: "b" });
      expect(again.id).toBe(id);
      expect(again.created).toBe(false);
      expect(await blobKeys(driver)).toEqual(before);
    });

    it("dedupes across versions: one changed line adds at most 3 chunks, and gc keeps every chunk the new version needs", async () => {
      const first = await store.put(log, { session: "v1" });
      const before = await blobKeys(driver);
      const lines = generatedLog(40_000).split("\n");
      lines[20_000] = "2026-11-23T10:00 ERROR the one changed line";
      const second = await store.put(lines.join("\n"), { session: "v2" });
      const added = [...(await blobKeys(driver))].filter((k) => !before.has(k));
      // The added blobs are the changed chunks plus the new manifest.
      expect(added.length - 1).toBeLessThanOrEqual(3);
      expect(added).toContain(blobKey(second.record.chunked!.manifest));
      await store.cleanupSession("v1");
      await new Promise((r) => setTimeout(r, (harness.timePrecisionMs ?? 0) + 20));
      const report = await store.gc({ graceMs: 0 });
      expect(report.blobs_swept).toBeGreaterThan(0); // the first version's own chunks and manifest
      expect(report.artifacts_swept).toEqual([first.id]); // named by its artifact id, not by its parts
      expect(await store.has(first.id)).toBe(false);
      expect(sha256Hex(await store.get(second.id))).toBe(second.id);
      expect((await store.verify()).ok).toBe(true);
    });

    it("binary content over 512 KiB is chunked and marked binary", async () => {
      const binary = new Uint8Array(700_000);
      for (let i = 0; i < binary.length; i++) binary[i] = (i * 2654435761) >>> 24;
      const put = await store.put(binary, { session: "s" });
      expect(put.record.encoding).toBe("binary");
      expect(Buffer.compare(await store.get(put.id), binary)).toBe(0);
      await expectCode(store.getText(put.id), "UNSUPPORTED");
    });

    it("over the cap: TOO_LARGE naming the limit, nothing live, and gc sweeps the chunks already written", async () => {
      const capped = new ArtifactStore({ driver, gcGraceMs: 0, gcGraceFloorMs: 0, maxBytes: 1_000_000 });
      const error = await expectCode(capped.putStream(piecesOf(log), { session: "s" }), "TOO_LARGE");
      expect(error.message).toContain("1000000");
      expect(await driver.get(metaKey(id))).toBeUndefined();
      expect(await store.listSessions()).toEqual([]);
      expect((await blobKeys(driver)).size).toBeGreaterThan(0); // chunks written before the cap was hit
      await new Promise((r) => setTimeout(r, (harness.timePrecisionMs ?? 0) + 20));
      await store.gc({ graceMs: 0 });
      expect((await blobKeys(driver)).size).toBe(0);
      await expectCode(capped.put(log), "TOO_LARGE");
    });

    it("a stream that fails mid-way leaves nothing live; the retry succeeds", async () => {
      await expect(store.putStream(piecesOf(log, new Error("connection reset")), { session: "s" })).rejects.toThrow(
        "connection reset",
      );
      expect(await driver.get(metaKey(id))).toBeUndefined();
      expect(await store.listSessions()).toEqual([]);
      const retry = await store.putStream(piecesOf(log), { session: "s" });
      expect(retry.id).toBe(id);
      expect(sha256Hex(await store.get(id, { session: "s" }))).toBe(id);
    });

    it("a backend failing mid-upload leaves nothing live; the retry succeeds", async () => {
      // The one fault we cannot cause for real on every backend: a wrapper fails the 6th chunk write.
      let writes = 0;
      const failing: Driver = {
        kind: driver.kind,
        location: driver.location,
        putIfAbsent: (key, data) =>
          ++writes === 6 ? Promise.reject(new Error("backend unavailable")) : driver.putIfAbsent(key, data),
        put: (key, data) => driver.put(key, data),
        get: (key) => driver.get(key),
        head: (key) => driver.head(key),
        delete: (key, o) => driver.delete(key, o),
        list: (prefix) => driver.list(prefix),
        uri: (key) => driver.uri(key),
      };
      await expect(new ArtifactStore({ driver: failing }).put(log, { session: "s" })).rejects.toThrow(
        "backend unavailable",
      );
      expect(await driver.get(metaKey(id))).toBeUndefined();
      expect(await store.listSessions()).toEqual([]);
      const retry = await store.put(log, { session: "s" });
      expect(sha256Hex(await store.get(retry.id))).toBe(id);
    });

    it("a corrupt or missing chunk is INTEGRITY on read, and verify names the artifact it breaks", async () => {
      const put = await store.put(log, { session: "s" });
      const chunked = (await store.chunks(id))!;
      const victim = chunked.chunks[3]!;
      await driver.put(blobKey(victim.id), bytes("not the chunk"));
      await expectCode(store.get(id), "INTEGRITY");
      await expectCode(readAll(await store.getStream(id)), "INTEGRITY");
      await expectCode(chunked.read(3), "INTEGRITY");
      expect(await chunked.read(2)).toHaveLength(chunked.chunks[2]!.size); // the others still read
      let report = await store.verify();
      const integrity = report.problems.find((p) => p.key === blobKey(victim.id))!;
      expect(integrity.kind).toBe("integrity");
      expect(integrity.message).toContain(put.shortRef.slice(4, 16));
      await driver.delete(blobKey(victim.id));
      await expectCode(store.get(id), "INTEGRITY");
      report = await store.verify();
      expect(report.problems).toContainEqual(
        expect.objectContaining({ kind: "missing_blob", key: blobKey(victim.id), artifact_id: id }),
      );
      await store.put(log); // re-stashing the original content heals it
      expect(sha256Hex(await store.get(id))).toBe(id);
    });

    it("a truncated, hand-edited or foreign manifest is INTEGRITY, never wrong bytes", async () => {
      const put = await store.put(log, { session: "s" });
      const manifestKey = blobKey(put.record.chunked!.manifest);
      const raw = (await driver.get(manifestKey))!;
      await driver.put(manifestKey, raw.subarray(0, raw.length - 40)); // truncated
      await expectCode(store.get(id), "INTEGRITY");
      await expectCode(store.getStream(id), "INTEGRITY");
      // Hand-edited, with the record pointed at the edit: chunks swapped, still valid JSON.
      const manifest = ManifestSchema.parse(JSON.parse(new TextDecoder().decode(raw)));
      const edited = { ...manifest, chunks: [manifest.chunks[1]!, manifest.chunks[0]!, ...manifest.chunks.slice(2)] };
      const editedBytes = encodeManifest(edited);
      await driver.put(blobKey(sha256Hex(editedBytes)), editedBytes);
      await driver.put(
        metaKey(id),
        bytes(JSON.stringify({ ...put.record, chunked: { ...put.record.chunked!, manifest: sha256Hex(editedBytes) } })),
      );
      await expectCode(store.get(id), "INTEGRITY"); // every chunk is fine; the whole is not
      await expectCode(readAll(await store.getStream(id)), "INTEGRITY");
      // Chunks of other content under this artifact's id: the sizes disagree.
      const other = await store.put(bytes(generatedLog(30_000, 7)));
      const foreign = {
        ...ManifestSchema.parse(
          JSON.parse(new TextDecoder().decode((await driver.get(blobKey(other.record.chunked!.manifest)))!)),
        ),
        artifact_id: id,
      };
      const foreignBytes = encodeManifest(foreign);
      await driver.put(blobKey(sha256Hex(foreignBytes)), foreignBytes);
      await driver.put(
        metaKey(id),
        bytes(
          JSON.stringify({ ...put.record, chunked: { ...put.record.chunked!, manifest: sha256Hex(foreignBytes) } }),
        ),
      );
      await expectCode(store.get(id), "INTEGRITY");
      expect((await store.verify()).problems).toContainEqual(
        expect.objectContaining({ kind: "integrity", artifact_id: id }),
      );
    });
  });
}
