import { ArtifactStore } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { StagedMemoryDriver } from "@artifact-refs/store/testing";

describe("addReference racing gc (grace 0)", () => {
  it("content swept before the reference landed: the reference is taken back (NOT_FOUND), nothing dangles", async () => {
    let clock = 1_000;
    const driver = new StagedMemoryDriver({ now: () => new Date(clock) });
    const store = new ArtifactStore({ driver, gcGraceMs: 0 });
    const { id } = await store.put("old garbage, about to be referenced"); // no reference: garbage for gc
    clock = 2_000;
    const { reached: atRefWrite, release } = driver.holdReferenceWrite();
    const adding = store.addReference("s1", id).catch((error: unknown) => error);
    await atRefWrite;
    clock = 3_000;
    const report = await store.gc({ graceMs: 0 }); // both marks miss the reference: the blob is swept
    expect(report.swept).toContain(id);
    release();
    expect(await adding).toMatchObject({ code: "NOT_FOUND", details: { artifact_id: id } });
    await expect(store.listReferences("s1")).rejects.toMatchObject({ code: "UNKNOWN_SESSION" });
    expect((await store.verify()).problems).toEqual([]);
  });

  it("a reference written after gc's second mark, before its sweep, keeps the content", async () => {
    let clock = 1_000;
    const driver = new StagedMemoryDriver({ now: () => new Date(clock) });
    const store = new ArtifactStore({ driver, gcGraceMs: 0 });
    const content = "old content referenced while gc sweeps";
    const { id } = await store.put(content);
    clock = 2_000;
    const { reached: atRefWrite, release } = driver.holdReferenceWrite();
    const adding = store.addReference("s1", id);
    await atRefWrite;
    clock = 3_000;
    driver.beforeBlobDelete = async () => {
      driver.beforeBlobDelete = undefined;
      clock = 4_000; // the reference lands and the blob is refreshed before gc's conditional delete
      release();
      await adding;
    };
    const report = await store.gc({ graceMs: 0 });
    expect(report.swept).not.toContain(id);
    await expect(adding).resolves.toMatchObject({ artifact_id: id });
    expect(new TextDecoder().decode(await store.get(id, { session: "s1" }))).toBe(content);
    expect((await store.verify()).problems).toEqual([]);
  });
});
