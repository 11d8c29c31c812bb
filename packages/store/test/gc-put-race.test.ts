import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

/**
 * A MemoryDriver that holds reference writes until released, and runs a hook before each
 * blob delete: it stages the interleaving the stress suite's concurrency run found.
 */
class StagedDriver extends MemoryDriver {
  refGate: Promise<void> | undefined;
  onRefWrite: (() => void) | undefined;
  beforeBlobDelete: (() => Promise<void>) | undefined;

  override async put(key: string, data: Uint8Array): Promise<void> {
    if (key.startsWith("refs/") && this.refGate) {
      this.onRefWrite?.();
      await this.refGate;
    }
    return super.put(key, data);
  }

  override async delete(key: string, options?: { ifUnmodifiedSince?: Date }): Promise<boolean> {
    if (key.startsWith("blobs/") && this.beforeBlobDelete) await this.beforeBlobDelete();
    return super.delete(key, options);
  }
}

describe("put with a session racing gc (grace 0)", () => {
  it("a reference written after gc's second mark, but before its sweep, keeps the blob", async () => {
    let clock = 1_000;
    const driver = new StagedDriver({ now: () => new Date(clock) });
    const store = new ArtifactStore({ driver, gcGraceMs: 0 });
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
});
