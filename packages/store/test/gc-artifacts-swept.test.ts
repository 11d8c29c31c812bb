import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { blobKey } from "@artifact-refs/store/internal";

// Over 512 KiB: stored in chunks (a manifest and several chunk blobs, no blob under the artifact's id).
const big = (tag: string) =>
  Array.from({ length: 30_000 }, (_, i) => `${tag} line ${i} of a large tool output ${"x".repeat(i % 17)}`).join("\n");

async function keys(driver: MemoryDriver): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of driver.list("")) out.push(entry.key);
  return out.sort();
}

function setup() {
  let clock = Date.parse("2026-11-24T06:00:00.000Z");
  const driver = new MemoryDriver({ now: () => new Date(clock) });
  const store = new ArtifactStore({ driver, now: () => new Date(clock), gcGraceMs: 0, gcGraceFloorMs: 0 });
  return { driver, store, tick: () => (clock += 1_000) };
}

describe("gc names the artifacts it removes (artifacts_swept)", () => {
  it("lists an unreferenced chunked artifact by its id, never its chunks or manifest, and not a referenced one", async () => {
    const { driver, store, tick } = setup();
    const dropped = await store.put(big("dropped"), { session: "a" });
    const kept = await store.put(big("kept"), { session: "b" });
    const whole = await store.put("a small unreferenced artifact");
    expect(dropped.record.chunked).toBeDefined();
    expect(kept.record.chunked).toBeDefined();
    await store.removeReference("a", dropped.id);
    tick();

    const before = await keys(driver);
    const dry = await store.gc({ dryRun: true });
    expect(dry.artifacts_swept).toEqual([dropped.id, whole.id].sort());
    expect(await keys(driver)).toEqual(before); // a dry run deletes nothing
    expect(await store.has(dropped.id)).toBe(true);

    const report = await store.gc();
    expect(report.artifacts_swept).toEqual(dry.artifacts_swept);
    expect(report.swept).toEqual(dry.swept);
    // `swept` keeps naming blobs: the chunked artifact's manifest and chunks, and the small artifact's own blob.
    expect(report.swept).toContain(dropped.record.chunked!.manifest);
    expect(report.swept).toContain(whole.id);
    expect(report.swept).not.toContain(dropped.id);
    expect(report.blobs_swept).toBe(report.swept.length);
    expect(await store.has(dropped.id)).toBe(false);
    expect(await store.has(whole.id)).toBe(false);
    expect(new TextDecoder().decode(await store.get(kept.id))).toBe(big("kept"));
    expect((await store.verify()).ok).toBe(true);

    tick();
    const again = await store.gc();
    expect(again).toMatchObject({ blobs_swept: 0, swept: [], artifacts_swept: [] });
  });

  it("lists nothing while every artifact is referenced, and an artifact whose references expire once they do", async () => {
    const { store, tick } = setup();
    const chunked = await store.put(big("expiring"), { session: "s", ttlMs: 500 });
    await store.put("held", { session: "s" });
    expect((await store.gc({ dryRun: true })).artifacts_swept).toEqual([]);
    tick();
    const report = await store.gc();
    expect(report.references_expired).toBe(1);
    expect(report.artifacts_swept).toEqual([chunked.id]);
  });

  it("a record a crash left without its blob is removed and named", async () => {
    const { driver, store, tick } = setup();
    const orphan = await store.put("its blob went, its record stayed");
    await driver.delete(blobKey(orphan.id)); // what a crash between gc's two deletes leaves
    tick();
    const dry = await store.gc({ dryRun: true });
    expect(dry).toMatchObject({ blobs_swept: 0, artifacts_swept: [orphan.id] });
    const report = await store.gc();
    expect(report.artifacts_swept).toEqual([orphan.id]);
    expect((await store.verify()).problems).toEqual([]);
  });

  it("an artifact whose blob a writer stores again between gc's two deletes keeps its record and is not named", async () => {
    let clock = Date.parse("2026-11-24T06:00:00.000Z");
    const content = new TextEncoder().encode("stored again mid-sweep");
    // Staged race: right after gc deletes the blob, a writer that rewrites blobs without touching the
    // record (verifyOnDedupe off) stores it again; gc then deletes the record and must write it back.
    class RewritingDriver extends MemoryDriver {
      override async delete(key: string, options?: { ifUnmodifiedSince?: Date }): Promise<boolean> {
        const removed = await super.delete(key, options);
        if (removed && key.startsWith("blobs/")) await super.put(key, content);
        return removed;
      }
    }
    const driver = new RewritingDriver({ now: () => new Date(clock) });
    const store = new ArtifactStore({ driver, now: () => new Date(clock), gcGraceMs: 0, gcGraceFloorMs: 0 });
    const put = await store.put(content);
    clock += 1_000;
    const report = await store.gc();
    expect(report.swept).toEqual([put.id]); // the blob was deleted once
    expect(report.artifacts_swept).toEqual([]); // but the artifact is back, record and all
    expect(await store.has(put.id)).toBe(true);
    expect((await store.verify()).problems).toEqual([]);
  });
});
