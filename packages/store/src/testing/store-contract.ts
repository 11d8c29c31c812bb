import { toShortRef } from "@artifact-refs/schema";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ArtifactStore } from "../artifact-store.js";
import { sha256Hex } from "../content.js";
import type { Driver } from "../driver.js";
import { blobKey, metaKey, refKey } from "../layout.js";
import type { ContractOptions } from "./driver-contract.js";
import { runChunkedContract } from "./chunked-contract.js";
import { bytesOf, expectCode, sleep, textOf, type DriverFactory, type DriverHarness } from "./harness.js";

export function runStoreContract(name: string, factory: DriverFactory, options: ContractOptions = {}): void {
  describe(`store contract: ${name}`, () => {
    let harness: DriverHarness;
    let driver: Driver;
    let clock: Date;
    let store: ArtifactStore;
    const open = (d: Driver, extra: Partial<ConstructorParameters<typeof ArtifactStore>[0]> = {}) =>
      new ArtifactStore({ driver: d, now: () => clock, gcGraceMs: 0, gcGraceFloorMs: 0, ...extra });
    const waitPrecision = () => sleep((harness.timePrecisionMs ?? 0) + 15);

    beforeEach(async () => {
      harness = await factory();
      driver = harness.driver;
      clock = new Date("2026-11-22T10:00:00.000Z");
      store = open(driver);
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup?.();
    });

    it("put returns a content-addressed id, handle, short ref and record", async () => {
      const text = "hello, artifacts\n";
      const result = await store.put(text, { type: "doc", label: "greeting", session: "s1" });
      expect(result.id).toBe(sha256Hex(bytesOf(text)));
      expect(result.handle).toBe(`aref:v1:sha256:${result.id}`);
      expect(result.shortRef).toBe(toShortRef(result.id));
      expect(result.created).toBe(true);
      expect(result.record).toMatchObject({
        artifact_id: result.id,
        type: "doc",
        label: "greeting",
        size_bytes: bytesOf(text).byteLength,
        content_hash: `sha256:${result.id}`,
        encoding: "utf-8",
        mime: "text/plain",
        created_at: clock.toISOString(),
      });
      expect(result.record.content_uri).toContain(result.id);
      expect(textOf(await store.get(result.handle))).toBe(text);
      expect(await store.getText(result.shortRef)).toBe(text);
      expect(await store.getRecord(result.id, { session: "s1" })).toEqual(result.record);
    });

    it("stores the same bytes once (dedupe); each session sees only its own metadata", async () => {
      const a = await store.put("same bytes", { label: "first", session: "s1" });
      const b = await store.put(bytesOf("same bytes"), { label: "second", session: "s2" });
      expect(b.id).toBe(a.id);
      expect(b.created).toBe(false);
      expect(b.deduped).toBe(false); // s2 never learns that s1 stored these bytes
      expect(b.record.label).toBe("second");
      expect((await store.getRecord(a.id, { session: "s1" })).label).toBe("first");
      expect((await store.listReferences("s2"))[0]?.label).toBe("second");
      const stats = await store.stats();
      expect(stats).toMatchObject({
        blobs: 1,
        references: 2,
        sessions: 2,
        bytes: 10,
        logical_bytes: 20,
        dedupe_ratio: 2,
      });
    });

    it("metadata never duplicates the content", async () => {
      const content = `UNIQUE-MARKER-${"x".repeat(2_000)}`;
      const { id } = await store.put(content, { session: "s" });
      const meta = textOf(await driver.get(metaKey(id)))!;
      expect(meta).not.toContain("x".repeat(300));
      expect(meta.length).toBeLessThan(1_500);
    });

    it("rejects content over the cap with TOO_LARGE and stores nothing", async () => {
      const small = open(driver, { maxBytes: 1024 });
      const error = await expectCode(small.put(new Uint8Array(1025), { session: "s" }), "TOO_LARGE");
      expect(error.message).toMatch(/1025 bytes.*1024/);
      expect((await small.put(new Uint8Array(1024))).created).toBe(true);
      expect((await small.stats()).blobs).toBe(1);
      expect(() => open(driver, { maxBytes: -1 })).toThrow(/maxBytes/);
    });

    it("stores binary content byte-exact and refuses it as text", async () => {
      const bytes = Uint8Array.from([0, 255, 1, 254, 0xc3, 0x28]);
      const { id, record } = await store.put(bytes);
      expect(record.encoding).toBe("binary");
      expect(await store.get(id)).toEqual(bytes);
      await expectCode(store.getText(id), "UNSUPPORTED");
    });

    it("rejects invalid refs with INVALID_HANDLE and missing ones with NOT_FOUND", async () => {
      for (const bad of [
        "art:abc",
        "ART:0123456789ab",
        "../../etc/passwd",
        "art:0123456789ab\u0000",
        " art:0123456789ab",
        "g".repeat(64),
      ]) {
        await expectCode(store.get(bad), "INVALID_HANDLE");
      }
      await expectCode(store.get("0".repeat(64)), "NOT_FOUND");
      await expectCode(store.get("art:000000000000"), "NOT_FOUND");
      await expectCode(store.getRecord("f".repeat(64)), "NOT_FOUND");
      expect(await store.has("0".repeat(64))).toBe(false);
    });

    it("an ambiguous prefix over the store is an error listing the candidates, never a guess", async () => {
      // Blob keys are listed by prefix; plant two whose ids share 13 hex chars.
      const base = "0123456789abc";
      const ids = [`${base}${"e".repeat(51)}`, `${base}${"f".repeat(51)}`];
      for (const id of ids) await driver.put(blobKey(id), bytesOf(id));
      const error = await expectCode(store.get(`art:${base.slice(0, 12)}`), "AMBIGUOUS_REF");
      expect(error.message).toContain(`art:${base}e`);
      expect((error as { details?: { candidates?: string[] } }).details?.candidates).toEqual([
        `art:${base}e`,
        `art:${base}f`,
      ]);
      expect(await store.resolve(`art:${base}f`)).toBe(ids[1]);
      expect(await store.shortRef(ids[0]!)).toBe(`art:${base}e`);
      // Its content does not hash to its id: reading it is an integrity failure, not a guess.
      await expectCode(store.get(`art:${base}e`), "INTEGRITY");
    });

    it("resolves short refs within a session; ambiguity lists candidates", async () => {
      // Reference keys are listed by prefix: plant two references whose ids share 13 hex
      // chars (the content behind them does not matter for resolution).
      const base = "abcdef0123456";
      const id1 = `${base}${"1".repeat(51)}`;
      const id2 = `${base}${"2".repeat(51)}`;
      for (const id of [id1, id2]) {
        await driver.put(
          refKey("amb", id),
          bytesOf(JSON.stringify({ session_id: "amb", artifact_id: id, type: "log", created_at: clock.toISOString() })),
        );
      }
      const error = await expectCode(store.resolve(`art:${base.slice(0, 12)}`, { session: "amb" }), "AMBIGUOUS_REF");
      expect((error as { details?: { candidates?: string[] } }).details?.candidates).toEqual([
        `art:${base}1`,
        `art:${base}2`,
      ]);
      expect(await store.resolve(`art:${base}1`, { session: "amb" })).toBe(id1);
      expect(await store.shortRef(id1, { session: "amb" })).toBe(`art:${base}1`);
    });

    it("session references: list, TTL, expiry, removal, cleanup", async () => {
      const a = await store.put("alpha", { session: "s1", label: "a", ttlMs: 60_000 });
      const b = await store.put("beta", { session: "s1", label: "b" });
      await store.put("gamma", { session: "s2" });
      expect((await store.listReferences("s1")).map((r) => r.label)).toEqual(["a", "b"]);
      expect(await store.listSessions()).toEqual(["s1", "s2"]);
      expect(await store.getText(a.shortRef, { session: "s1" })).toBe("alpha");
      await expectCode(store.get(a.id, { session: "s2" }), "NOT_FOUND");

      clock = new Date(clock.getTime() + 61_000);
      await expectCode(store.get(a.id, { session: "s1" }), "EXPIRED");
      expect(await store.getText(a.id)).toBe("alpha"); // content stays until gc
      expect((await store.listReferences("s1")).map((r) => r.label)).toEqual(["b"]);
      expect((await store.listReferences("s1", { includeExpired: true })).length).toBe(2);
      expect(await store.cleanupExpired()).toBe(1);
      expect(await store.cleanupExpired()).toBe(0);

      expect(await store.removeReference("s1", b.shortRef)).toBe(true);
      // Gone: by short ref nothing matches any more, by id the delete says it was not there.
      await expectCode(store.removeReference("s1", b.shortRef), "NOT_FOUND");
      expect(await store.removeReference("s1", b.id)).toBe(false);
      await expectCode(store.listReferences("s1"), "UNKNOWN_SESSION");
      expect(await store.cleanupSession("s2")).toBe(1);
      expect(await store.listSessions()).toEqual([]);
      await expectCode(store.listReferences("nope"), "UNKNOWN_SESSION");
      await expectCode(store.put("x", { session: "../etc" }), "INVALID_INPUT");
      await expectCode(store.put("x", { session: "s", ttlMs: -5 }), "INVALID_INPUT");
    });

    it("gc sweeps unreferenced blobs and keeps referenced ones", async () => {
      const kept = await store.put("kept", { session: "s" });
      const dropped = await store.put("dropped", { session: "s" });
      const orphan = await store.put("never referenced");
      await store.removeReference("s", dropped.id);
      await waitPrecision();
      const dry = await store.gc({ dryRun: true });
      expect(dry.swept.sort()).toEqual([dropped.id, orphan.id].sort());
      expect(dry.artifacts_swept).toEqual([dropped.id, orphan.id].sort());
      expect(await store.has(dropped.id)).toBe(true);
      const report = await store.gc();
      expect(report).toMatchObject({ blobs_scanned: 3, blobs_swept: 2, dry_run: false });
      expect(report.bytes_freed).toBe(7 + 16);
      expect(report.artifacts_swept).toEqual([dropped.id, orphan.id].sort());
      expect(await store.has(dropped.id)).toBe(false);
      expect(await driver.get(metaKey(orphan.id))).toBeUndefined();
      expect(await store.getText(kept.id)).toBe("kept");
    });

    it("gc honours the grace period and sweeps expired references' blobs", async () => {
      const graced = open(driver, { gcGraceMs: 3_600_000 });
      const orphan = await graced.put("young orphan");
      await graced.put("expiring", { session: "s", ttlMs: 1_000 });
      await waitPrecision();
      expect((await graced.gc()).blobs_swept).toBe(0);
      expect(await graced.has(orphan.id)).toBe(true);
      clock = new Date(clock.getTime() + 2_000);
      const report = await store.gc();
      expect(report.references_expired).toBe(1);
      expect(report.blobs_swept).toBe(2);
    });

    it("gc never sweeps a blob written after its mark began", async () => {
      const old = await store.put("old orphan");
      await waitPrecision();
      let late: string | undefined;
      const report = await store.gc({
        onMarked: async () => {
          // Another writer, after the mark: a new unreferenced blob and a re-use of the old one.
          late = (await store.put("written during gc")).id;
          await store.put("old orphan", { session: "late" });
        },
      });
      expect(report.swept).not.toContain(late);
      expect(await store.getText(late!)).toBe("written during gc");
      expect(await store.getText(old.id)).toBe("old orphan");
    });

    it("a flipped byte fails the read with INTEGRITY, verify reports it, re-putting heals it", async () => {
      const content = "precious content ".repeat(100);
      const { id } = await store.put(content, { session: "s" });
      const stored = (await driver.get(blobKey(id)))!;
      stored[100] = stored[100]! ^ 0x01;
      await driver.put(blobKey(id), stored);
      const error = await expectCode(store.get(id), "INTEGRITY");
      expect(error.message).toContain(id.slice(0, 12));
      const report = await store.verify();
      expect(report.ok).toBe(false);
      expect(report.problems).toEqual([
        expect.objectContaining({ kind: "integrity", artifact_id: id, repaired: false }),
      ]);
      const healed = await store.put(content, { session: "s" });
      // Reported only when the put read the stored copy back (verifyOnDedupe: default on, off for a
      // remote driver, whose put writes the bytes again and so replaces the copy without reading it).
      expect(healed.healed).toBe(driver.remote !== true);
      expect(healed.created).toBe(false);
      expect(await store.getText(id)).toBe(content);
      expect((await store.verify()).ok).toBe(true);
    });

    it("re-putting heals a corrupt blob with verifyOnDedupe on and off; `healed` only when it read the copy back", async () => {
      for (const verifyOnDedupe of [true, false]) {
        const own = new ArtifactStore({ driver, gcGraceMs: 0, gcGraceFloorMs: 0, verifyOnDedupe });
        const content = `content re-put with verifyOnDedupe ${verifyOnDedupe} `.repeat(50);
        const { id } = await own.put(content);
        const stored = (await driver.get(blobKey(id)))!;
        stored[10] = stored[10]! ^ 0x01;
        await driver.put(blobKey(id), stored);
        await expectCode(own.get(id), "INTEGRITY");
        const again = await own.put(content);
        expect(again).toMatchObject({ id, created: false, deduped: true, healed: verifyOnDedupe });
        expect(await own.getText(id)).toBe(content);
      }
      expect((await store.verify()).ok).toBe(true);
    });

    it("a re-put into the same session keeps what its reference said (label, summary, tool, type), with and without verifyOnDedupe", async () => {
      for (const verifyOnDedupe of [true, false]) {
        const own = open(driver, { verifyOnDedupe });
        const session = `again-${verifyOnDedupe}`;
        const content = `re-put into ${session} `.repeat(20);
        const first = await own.put(content, {
          session,
          type: "doc",
          label: "first",
          summary: "said first",
          tool: { name: "grep" },
        });
        const again = await own.put(content, { session });
        expect(again).toMatchObject({ id: first.id, created: false, deduped: true, healed: false });
        expect(again.reference).toMatchObject({
          type: "doc",
          label: "first",
          summary: "said first",
          tool: { name: "grep" },
        });
        const relabelled = await own.put(content, { session, label: "second", ttlMs: 3_600_000 });
        expect(relabelled.deduped).toBe(true);
        expect(relabelled.reference).toMatchObject({ type: "doc", label: "second", summary: "said first" });
        expect(relabelled.reference?.expires_at).toBe(new Date(clock.getTime() + 3_600_000).toISOString());
        expect(relabelled.record).toMatchObject({ label: "second", summary: "said first" });
        expect(await own.listReferences(session)).toEqual([relabelled.reference]);
        expect(await own.getText(first.shortRef, { session })).toBe(content);
      }
      expect((await store.verify()).ok).toBe(true);
    });

    it("a re-put after another instance changed or removed the session's reference takes what is stored, not what it wrote", async () => {
      const otherDriver = harness.reopen ? await harness.reopen() : driver;
      const mine = open(driver, { verifyOnDedupe: false });
      const theirs = open(otherDriver, { verifyOnDedupe: false });
      try {
        const content = "content two instances re-put ".repeat(20);
        await mine.put(content, { session: "s1", label: "mine" });
        await theirs.put(content, { session: "s1", label: "theirs", summary: "their summary" });
        const again = await mine.put(content, { session: "s1" });
        expect(again).toMatchObject({ created: false, deduped: true });
        expect(again.reference).toMatchObject({ label: "theirs", summary: "their summary" });
        // Removed there, and its content swept: the re-put stores the content again, with its own metadata only.
        expect(await theirs.removeReference("s1", again.id)).toBe(true);
        await waitPrecision();
        expect((await theirs.gc()).swept).toContain(again.id);
        const stored = await mine.put(content, { session: "s1" });
        expect(stored).toMatchObject({ created: true, deduped: false });
        expect(stored.reference?.label).toBeUndefined();
        expect(await theirs.getText(stored.shortRef, { session: "s1" })).toBe(content);
        expect((await theirs.verify()).ok).toBe(true);
      } finally {
        if (otherDriver !== driver) await theirs.close();
      }
    });

    it("corrupt or truncated metadata is CORRUPT_METADATA; verify --repair rebuilds it", async () => {
      const { id } = await store.put('{"a": [1, 2, 3]}', { session: "s", label: "json" });
      const meta = textOf(await driver.get(metaKey(id)))!;
      await driver.put(metaKey(id), bytesOf(meta.slice(0, meta.length / 2)));
      await expectCode(store.getRecord(id), "CORRUPT_METADATA");
      expect(textOf(await store.get(id))).toBe('{"a": [1, 2, 3]}'); // content still readable
      const report = await store.verify();
      expect(report.problems).toEqual([
        expect.objectContaining({ kind: "corrupt_metadata", artifact_id: id, repaired: false }),
      ]);
      await driver.put(metaKey(id), bytesOf("\u0000garbage{{{"));
      const repaired = await store.verify({ repair: true });
      expect(repaired).toMatchObject({ ok: true, repaired: 1 });
      expect((await store.getRecord(id)).mime).toBe("application/json");
      expect((await store.verify()).problems).toEqual([]);
    });

    it("metadata naming another artifact is corrupt; a re-put that reads it back (verifyOnDedupe) heals it, verify --repair always does", async () => {
      for (const verifyOnDedupe of [true, false]) {
        const own = new ArtifactStore({ driver, gcGraceMs: 0, gcGraceFloorMs: 0, verifyOnDedupe });
        const a = await own.put(`aaa ${verifyOnDedupe}`);
        const b = await own.put(`bbb ${verifyOnDedupe}`);
        await driver.put(metaKey(a.id), (await driver.get(metaKey(b.id)))!);
        await expectCode(own.getRecord(a.id), "CORRUPT_METADATA");
        // Off, the put reports its own record without reading the stored one.
        expect((await own.put(`aaa ${verifyOnDedupe}`)).record.artifact_id).toBe(a.id);
        if (!verifyOnDedupe) {
          await expectCode(own.getRecord(a.id), "CORRUPT_METADATA");
          const repaired = await own.verify({ repair: true });
          expect(repaired.problems).toEqual([expect.objectContaining({ kind: "corrupt_metadata", repaired: true })]);
        }
        expect((await own.getRecord(a.id)).artifact_id).toBe(a.id);
      }
    });

    it("a corrupt reference does not break listing; verify reports and repairs it", async () => {
      const good = await store.put("good", { session: "s" });
      const bad = await store.put("bad", { session: "s" });
      await driver.put(refKey("s", bad.id), bytesOf("{not json"));
      expect((await store.listReferences("s")).map((r) => r.artifact_id)).toEqual([good.id]);
      await waitPrecision();
      expect((await store.gc()).swept).not.toContain(bad.id); // unreadable reference keeps its blob
      const report = await store.verify({ repair: true });
      expect(report.problems).toEqual([expect.objectContaining({ kind: "corrupt_reference", repaired: true })]);
    });

    it("content without metadata (interrupted put) is readable and its record is rebuilt", async () => {
      const bytes = bytesOf("orphaned content");
      const id = sha256Hex(bytes);
      await driver.putIfAbsent(blobKey(id), bytes);
      expect((await store.getRecord(id)).size_bytes).toBe(bytes.byteLength);
      expect((await store.verify()).ok).toBe(true);
    });

    it("concurrent writers of the same and of different content: no errors, each blob once", async () => {
      const texts = Array.from({ length: 20 }, (_, i) => `content ${i % 7}`);
      const results = await Promise.all(
        texts.flatMap((t, i) => [store.put(t, { session: `w${i % 4}` }), store.put(t)]),
      );
      const distinct = new Set(results.map((r) => r.id));
      expect(distinct.size).toBe(7);
      expect(results.filter((r) => r.created).length).toBe(7);
      const stats = await store.stats();
      expect(stats.blobs).toBe(7);
      for (const id of distinct) expect(textOf(await store.get(id))).toMatch(/^content \d$/);
      expect((await store.verify()).ok).toBe(true);
    });

    it("refuses a store written with an unknown layout version", async () => {
      await store.put("x");
      await driver.put("layout.json", bytesOf('{"layout": 99}'));
      const fresh = open(driver);
      await expectCode(fresh.put("y"), "UNSUPPORTED");
    });

    if (options.multiInstance) {
      it("two store instances over one backend see each other's artifacts", async () => {
        const other = open(await harness.reopen!());
        try {
          const a = await store.put("from instance A", { session: "shared" });
          const b = await other.put("from instance B", { session: "shared" });
          expect(await other.getText(a.shortRef, { session: "shared" })).toBe("from instance A");
          expect(await store.getText(b.id)).toBe("from instance B");
          expect((await other.listReferences("shared")).length).toBe(2);
        } finally {
          await other.close();
        }
      });
    }
  });
  runChunkedContract(name, factory);
}
