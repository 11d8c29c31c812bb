import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

describe("gc --dry-run and session records", () => {
  it("counts the records a run would remove (ended sessions and retention), removes nothing; the run removes as many", async () => {
    let clock = Date.parse("2026-11-22T10:00:00.000Z");
    const driver = new MemoryDriver();
    const store = new ArtifactStore({
      driver,
      now: () => new Date(clock),
      records: { maxRecords: 3, pruneEvery: 1_000, maxAgeMs: 86_400_000 },
    });
    await store.put("short-lived", { session: "ends", ttlMs: 1_000 });
    await store.put("kept", { session: "stays", ttlMs: 60_000 });
    await store.put("kept too", { session: "partly" });
    await store.put("expires", { session: "partly", ttlMs: 1_000 });
    for (let i = 0; i < 4; i++) {
      await store.records.append("ends", "turn", { i });
      await store.records.append("stays", "turn", { i }); // one past maxRecords
      await store.records.append("partly", "turn", { i }); // one past maxRecords; the session keeps a reference
      clock += 10;
    }
    clock += 5_000;
    const keysBefore = await collectKeys(driver);
    const dry = await store.gc({ dryRun: true });
    expect(dry.dry_run).toBe(true);
    expect(dry.references_expired).toBe(2);
    expect(dry.records_removed).toBe(4 + 1 + 1);
    expect(await collectKeys(driver)).toEqual(keysBefore);
    const real = await store.gc();
    expect(real.records_removed).toBe(dry.records_removed);
    expect((await store.records.page("ends", "turn")).records).toEqual([]);
    expect((await store.records.page("stays", "turn")).records).toHaveLength(3);
    expect((await store.records.page("partly", "turn")).records).toHaveLength(3);
    expect((await store.gc({ dryRun: true })).records_removed).toBe(0);
  });
});

async function collectKeys(driver: MemoryDriver): Promise<string[]> {
  const keys: string[] = [];
  for await (const e of driver.list("")) keys.push(e.key);
  return keys.sort();
}
