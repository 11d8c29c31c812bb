import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";

/** A MemoryDriver that runs a hook (once) just before the first delete of a reference key. */
class RefDeleteHook extends MemoryDriver {
  beforeRefDelete: (() => Promise<void>) | undefined;
  override async delete(key: string, options?: { ifUnmodifiedSince?: Date }): Promise<boolean> {
    const hook = key.startsWith("refs/") ? this.beforeRefDelete : undefined;
    this.beforeRefDelete = undefined;
    if (hook) await hook();
    return super.delete(key, options);
  }
}

describe("the expiry pass racing a renewal from another instance", () => {
  const content = "a build log stashed for ten minutes, stashed again just as it expired";

  async function staged() {
    let clock = 1_000;
    const driver = new RefDeleteHook({ now: () => new Date(clock) });
    const now = () => new Date(clock);
    const sweeper = new ArtifactStore({ driver, now, gcGraceMs: 0, gcGraceFloorMs: 0 });
    const writer = new ArtifactStore({ driver, now, gcGraceMs: 0, gcGraceFloorMs: 0 });
    const { id } = await writer.put(content, { session: "build-7", ttlMs: 500 });
    clock = 2_000; // expired
    driver.beforeRefDelete = async () => {
      clock = 3_000;
      await writer.put(content, { session: "build-7", ttlMs: 600_000 }); // renewed after the sweeper read it
    };
    return { id, sweeper, writer };
  }

  it("cleanupExpired keeps a reference renewed between its read and its delete", async () => {
    const { id, sweeper, writer } = await staged();
    expect(await sweeper.cleanupExpired()).toBe(0);
    const refs = await writer.listReferences("build-7");
    expect(refs.map((r) => r.artifact_id)).toEqual([id]);
    expect(await sweeper.getText(id, { session: "build-7" })).toBe(content);
  });

  it("gc keeps the renewed reference, its content and its session", async () => {
    const { id, sweeper, writer } = await staged();
    const report = await sweeper.gc({ graceMs: 0 });
    expect(report.swept).not.toContain(id);
    expect((await writer.listReferences("build-7")).map((r) => r.artifact_id)).toEqual([id]);
    expect(await writer.getText(id, { session: "build-7" })).toBe(content);
    expect((await sweeper.verify()).problems).toEqual([]);
  });
});
