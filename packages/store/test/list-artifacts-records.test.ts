import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { metaKey } from "@artifact-refs/store/internal";
import { describe, expect, it } from "vitest";

/** A MemoryDriver that logs record reads. */
class RecordReads extends MemoryDriver {
  reads = 0;
  override async get(key: string) {
    if (key.includes("meta/")) this.reads++;
    return super.get(key);
  }
}

const later = (ms: number) => () => new Date(Date.now() + ms);

describe("listArtifacts: a session's references with their records", () => {
  it("reads each live reference's record once; listing again unchanged reads none", async () => {
    const driver = new RecordReads();
    const store = new ArtifactStore({ driver });
    const texts = ["first content listed with its record", "second content listed with its record"];
    for (const text of texts) await store.put(text, { session: "s" });
    const before = driver.reads;
    const first = await store.listArtifacts("s");
    expect(driver.reads - before).toBe(2);
    expect(first.map((l) => l.record?.size_bytes)).toEqual(texts.map((t) => t.length));
    const again = await store.listArtifacts("s");
    expect(driver.reads - before).toBe(2);
    expect(again).toEqual(first);
  });

  it("a reference written again (purged and stored again elsewhere) gets its new record, not the one read before", async () => {
    const driver = new MemoryDriver();
    const store = new ArtifactStore({ driver });
    const other = new ArtifactStore({ driver, now: later(5_000) });
    const text = "content whose record is rebuilt by another instance";
    // The shared record's summary comes from the put that stored the content (without a session here).
    const put = await store.put(text, { summary: "first summary" });
    await store.put(text, { session: "s" });
    expect((await store.listArtifacts("s"))[0]!.record?.summary).toBe("first summary");
    await other.purge(put.id);
    await other.put(text, { summary: "second summary" });
    await other.put(text, { session: "s" });
    expect((await store.listArtifacts("s"))[0]!.record?.summary).toBe("second summary");
  });

  it("never lists an artifact another instance removed and swept", async () => {
    const driver = new MemoryDriver();
    const store = new ArtifactStore({ driver });
    const other = new ArtifactStore({ driver });
    const kept = await store.put("content that stays in the session", { session: "s" });
    const gone = await store.put("content removed and swept elsewhere", { session: "s" });
    expect((await store.listArtifacts("s")).map((l) => l.reference.artifact_id).sort()).toEqual(
      [kept.id, gone.id].sort(),
    );
    expect(await other.removeReference("s", gone.id)).toBe(true);
    await other.gc({ graceMs: 0 });
    expect(await store.has(gone.id)).toBe(false);
    expect((await store.listArtifacts("s")).map((l) => l.reference.artifact_id)).toEqual([kept.id]);
  });

  it("a corrupt record lists without it on every listing, and getRecord reports it", async () => {
    const driver = new MemoryDriver();
    const store = new ArtifactStore({ driver });
    const text = "content whose record is damaged";
    const put = await store.put(text, { session: "s" });
    await driver.put(metaKey(put.id), new TextEncoder().encode("{ not json"));
    expect((await store.listArtifacts("s"))[0]!.record).toBeUndefined();
    expect((await store.listArtifacts("s"))[0]!.record).toBeUndefined();
    await expect(store.getRecord(put.id)).rejects.toMatchObject({ code: "CORRUPT_METADATA" });
    // Once a record read back is cached, a real read still reports damage done since.
    await store.verify({ repair: true });
    expect((await store.listArtifacts("s"))[0]!.record?.size_bytes).toBe(text.length);
    await driver.put(metaKey(put.id), new TextEncoder().encode("{ not json"));
    await expect(store.getRecord(put.id)).rejects.toMatchObject({ code: "CORRUPT_METADATA" });
  });

  it("expired references (includeExpired) have their records read on every listing", async () => {
    const driver = new RecordReads();
    let now = Date.now();
    const store = new ArtifactStore({ driver, now: () => new Date(now) });
    await store.put("content whose reference expires", { session: "s", ttlMs: 1_000 });
    await store.listArtifacts("s");
    now += 2_000;
    const before = driver.reads;
    await store.listArtifacts("s", { includeExpired: true });
    await store.listArtifacts("s", { includeExpired: true });
    expect(driver.reads - before).toBe(2);
  });
});
