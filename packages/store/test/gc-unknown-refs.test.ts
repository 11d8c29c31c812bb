import { describe, expect, it } from "vitest";
import { hasErrorCode } from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

describe("gc with reference keys it cannot read", () => {
  it("sweeps nothing and says which keys block it; verify lists them", async () => {
    const driver = new MemoryDriver();
    const store = new ArtifactStore({ driver, gcGraceMs: 0 });
    const { id } = await store.put("held by a reference in an older key format");
    // An older layout's reference (refs/<session>/<hex>.json, unsharded) to the same blob.
    await driver.put(
      `refs/s1/${id}.json`,
      new TextEncoder().encode(JSON.stringify({ session_id: "s1", artifact_id: id })),
    );
    await new Promise((r) => setTimeout(r, 5));
    let caught: unknown;
    try {
      await store.gc();
    } catch (error) {
      caught = error;
    }
    expect(hasErrorCode(caught, "CORRUPT_METADATA")).toBe(true);
    expect((caught as Error).message).toContain(`refs/s1/${id}.json`);
    expect(await store.getText(id)).toBe("held by a reference in an older key format");
    const report = await store.verify();
    expect(report.problems).toEqual([
      expect.objectContaining({ kind: "unreadable", key: `refs/s1/${id}.json`, repaired: false }),
    ]);
    await driver.delete(`refs/s1/${id}.json`);
    expect((await store.gc()).swept).toEqual([id]);
  });
});
