import { ArtifactStore } from "@artifact-refs/store";
import { sha256Hex } from "@artifact-refs/store/internal";
import { ReferenceWriteHold, generatedLog } from "@artifact-refs/store/testing";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempRoot } from "./helpers.js";

/** An fs driver that holds the next reference write (a `put` of a `refs/` key) until released. */
class HeldFsDriver extends FsDriver {
  readonly #refWrites = new ReferenceWriteHold();

  holdReferenceWrite(): { reached: Promise<void>; release: () => void } {
    return this.#refWrites.hold();
  }

  override async put(key: string, data: Uint8Array): Promise<void> {
    await this.#refWrites.before(key);
    return super.put(key, data);
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("fs: a chunked put whose packed chunks a gc with grace 0 sweeps before its reference", () => {
  let root: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ root, cleanup } = await tempRoot());
  });
  afterEach(async () => {
    await cleanup();
  });

  it("fails with CONFLICT instead of leaving a reference to swept chunks; a retry stores it whole", async () => {
    const driver = new HeldFsDriver({ root, fsync: false });
    const store = new ArtifactStore({ driver, gcGraceMs: 0 });
    const text = generatedLog(100_000, 5); // ~6 MB: ~90 chunks, most of them in a pack
    const held = driver.holdReferenceWrite();
    const outcome = store.put(text, { session: "s1" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await held.reached;
    await pause(20);
    const report = await store.gc({ graceMs: 0 });
    expect(report.blobs_swept).toBeGreaterThan(32);
    held.release();
    expect(await outcome).toMatchObject({ code: "CONFLICT" });
    await expect(store.listReferences("s1")).rejects.toMatchObject({ code: "UNKNOWN_SESSION" });
    const retry = await store.put(text, { session: "s1" });
    expect(sha256Hex(await store.get(retry.id, { session: "s1" }))).toBe(retry.id);
    expect((await store.verify()).problems).toEqual([]);
    await store.close();
  });
});
