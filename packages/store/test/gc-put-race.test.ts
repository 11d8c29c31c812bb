import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver, type PutIfAbsentOptions } from "@artifact-refs/store";

/**
 * A MemoryDriver that holds reference writes until released, and runs a hook before each
 * blob delete: it stages the interleaving the stress suite's concurrency run found.
 */
class StagedDriver extends MemoryDriver {
  refGate: Promise<void> | undefined;
  onRefWrite: (() => void) | undefined;
  beforeBlobDelete: (() => Promise<void>) | undefined;
  beforeMetaDelete: (() => Promise<void>) | undefined;
  blobGetGate: Promise<void> | undefined;
  onBlobGet: (() => void) | undefined;

  override async get(key: string): Promise<Uint8Array | undefined> {
    if (key.startsWith("blobs/") && this.blobGetGate) {
      const gate = this.blobGetGate;
      this.blobGetGate = undefined;
      this.onBlobGet?.();
      await gate;
    }
    return super.get(key);
  }

  override async put(key: string, data: Uint8Array): Promise<void> {
    if (key.startsWith("refs/") && this.refGate) {
      this.onRefWrite?.();
      await this.refGate;
    }
    return super.put(key, data);
  }

  /** A put writes its reference conditionally (putIfAbsent): held the same way. */
  override async putIfAbsent(key: string, data: Uint8Array, options?: PutIfAbsentOptions) {
    if (key.startsWith("refs/") && this.refGate) {
      this.onRefWrite?.();
      await this.refGate;
    }
    return super.putIfAbsent(key, data, options);
  }

  override async delete(key: string, options?: { ifUnmodifiedSince?: Date }): Promise<boolean> {
    if (key.startsWith("blobs/") && this.beforeBlobDelete) await this.beforeBlobDelete();
    if (key.startsWith("meta/") && this.beforeMetaDelete) await this.beforeMetaDelete();
    return super.delete(key, options);
  }
}

describe.each([
  { verifyOnDedupe: true, path: "probe and read back" },
  { verifyOnDedupe: false, path: "blob rewritten, the writer's record" },
])("put with a session racing gc (grace 0), $path", ({ verifyOnDedupe }) => {
  it("a reference written after gc's second mark, but before its sweep, keeps the blob", async () => {
    let clock = 1_000;
    const driver = new StagedDriver({ now: () => new Date(clock) });
    const store = new ArtifactStore({ driver, gcGraceMs: 0, verifyOnDedupe });
    const content = "content first stored without a reference";
    const { id } = await store.put(content);

    // The writer re-puts the content with a session: its blob touch happens now (t=2000),
    // then its reference write waits.
    clock = 2_000;
    let release!: () => void;
    driver.refGate = new Promise((resolve) => (release = resolve));
    const atRefWrite = new Promise<void>((resolve) => (driver.onRefWrite = resolve));
    const writer = store.put(content, { session: "s1" });
    await atRefWrite;

    // gc starts at t=3000 (cutoff 3000): both marks miss the reference, the blob (t=2000) is a
    // candidate. Just before its delete, the writer finishes: reference written, blob checked.
    clock = 3_000;
    driver.beforeBlobDelete = async () => {
      driver.beforeBlobDelete = undefined;
      clock = 4_000;
      release();
      await writer;
    };
    const report = await store.gc({ graceMs: 0 });

    expect(report.swept).not.toContain(id);
    expect(new TextDecoder().decode(await store.get(id, { session: "s1" }))).toBe(content);
    expect((await store.verify()).problems).toEqual([]);
  });

  for (const session of ["s1", undefined])
    it(`a writer that stores the blob again between gc's blob delete and record delete keeps the record (${session ? "with" : "without"} a session)`, async () => {
      let clock = 1_000;
      const driver = new StagedDriver({ now: () => new Date(clock) });
      const store = new ArtifactStore({ driver, gcGraceMs: 0, verifyOnDedupe });
      const content = "content whose record gc is about to delete";
      const { id } = await store.put(content); // blob and record at t=1000, no reference

      // gc at t=3000 deletes the blob; just before it deletes the record, a writer puts the same
      // content (t=4000): blob stored again, record touched (verifyOnDedupe off: left alone, gc
      // then finds the blob back and writes the record again), reference written.
      clock = 3_000;
      driver.beforeMetaDelete = async () => {
        driver.beforeMetaDelete = undefined;
        clock = 4_000;
        await store.put(content, session ? { session } : {});
      };
      await store.gc({ graceMs: 0 });

      // verify first: getRecord would rebuild a missing record from the content.
      expect((await store.verify()).problems).toEqual([]);
      expect((await store.getRecord(id, session ? { session } : {})).artifact_id).toBe(id);
      expect(new TextDecoder().decode(await store.get(id))).toBe(content);
    });

  // Only a put that reads the stored copy back has a read-back to stage.
  if (verifyOnDedupe)
    it("a writer whose read-back finds the blob swept re-stores it and keeps its record from gc's record delete", async () => {
      let clock = 1_000;
      const driver = new StagedDriver({ now: () => new Date(clock) });
      const store = new ArtifactStore({ driver, gcGraceMs: 0, verifyOnDedupe });
      const content = "content re-put while gc sweeps it";
      const { id } = await store.put(content);

      // The writer starts at t=2000: blob and record touched, then it waits in its read-back.
      clock = 2_000;
      let resume!: () => void;
      driver.blobGetGate = new Promise((r) => (resume = r));
      const atReadBack = new Promise<void>((r) => (driver.onBlobGet = r));
      const writer = store.put(content, { session: "s1" });
      await atReadBack;

      // gc at t=3000 (cutoff 3000) deletes the blob (t=2000); before its record delete, the writer
      // goes on at t=4000: finds the blob gone, stores it again, writes its reference.
      clock = 3_000;
      driver.beforeMetaDelete = async () => {
        driver.beforeMetaDelete = undefined;
        clock = 4_000;
        resume();
        await writer;
      };
      await store.gc({ graceMs: 0 });

      // verify first: getRecord would rebuild a missing record from the content.
      expect((await store.verify()).problems).toEqual([]);
      expect((await store.getRecord(id, { session: "s1" })).artifact_id).toBe(id);
    });
});
