import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";

/** A MemoryDriver that logs every request by kind and key area. */
class LoggingDriver extends MemoryDriver {
  log: string[] = [];
  override async get(key: string) {
    this.log.push(`get ${key.split("/")[0]}`);
    return super.get(key);
  }
  override list(prefix: string) {
    this.log.push(`list ${prefix.split("/")[0]}`);
    return super.list(prefix);
  }
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe("ArtifactStore.open (access check and content at once)", () => {
  it("cachedReference: the reference this instance read or wrote within maxAgeMs, with no request", async () => {
    const driver = new LoggingDriver();
    const store = new ArtifactStore({ driver });
    const put = await store.put("peeked", { session: "s1", ttlMs: 60_000 });
    const other = new ArtifactStore({ driver });
    driver.log = [];
    expect(store.cachedReference("s1", put.shortRef, { maxAgeMs: 60_000 })?.artifact_id).toBe(put.id);
    expect(store.cachedReference("s1", put.shortRef)).toBeUndefined(); // maxAgeMs 0: never cached
    expect(store.cachedReference("s2", put.shortRef, { maxAgeMs: 60_000 })).toBeUndefined();
    expect(other.cachedReference("s1", put.shortRef, { maxAgeMs: 60_000 })).toBeUndefined();
    expect(driver.log).toEqual([]);
    await other.open(put.shortRef, { session: "s1", maxAgeMs: 60_000 });
    expect(other.cachedReference("s1", put.shortRef, { maxAgeMs: 60_000 })?.artifact_id).toBe(put.id);
    await store.removeReference("s1", put.id);
    expect(store.cachedReference("s1", put.shortRef, { maxAgeMs: 60_000 })).toBeUndefined();
    expect(() => store.cachedReference("s1", put.shortRef, { maxAgeMs: -1 })).toThrow();
  });

  it("by short ref in a session: the listing, then the reference and the blob; cached: the blob alone", async () => {
    const driver = new LoggingDriver();
    const writer = new ArtifactStore({ driver });
    const put = await writer.put("opened content", { session: "s1", label: "the label" });
    const store = new ArtifactStore({ driver });
    driver.log = [];
    const opened = await store.open(put.shortRef, { session: "s1", maxAgeMs: 60_000 });
    expect(text(opened.bytes)).toBe("opened content");
    expect(opened).toMatchObject({ id: put.id, reference: { label: "the label", artifact_id: put.id } });
    expect(driver.log[0]).toBe("list refs");
    expect(driver.log.slice(1).sort()).toEqual(["get blobs", "get refs"]); // at once, after the listing
    driver.log = [];
    expect(text((await store.open(put.shortRef, { session: "s1", maxAgeMs: 60_000 })).bytes)).toBe("opened content");
    expect(driver.log).toEqual(["get blobs"]);
    // The writer's own reference is already known to it.
    driver.log = [];
    await writer.open(put.shortRef, { session: "s1", maxAgeMs: 60_000 });
    expect(driver.log).toEqual(["get blobs"]);
    // By id without a session: the content alone.
    driver.log = [];
    expect((await store.open(put.id)).reference).toBeUndefined();
    expect(driver.log).toEqual(["get blobs"]);
  });

  it("refuses what the session does not hold (NOT_FOUND), an expired reference (EXPIRED), a bad maxAgeMs", async () => {
    let clock = Date.parse("2026-11-24T00:00:00Z");
    const store = new ArtifactStore({ driver: new MemoryDriver(), now: () => new Date(clock) });
    const put = await store.put("held by s1 only", { session: "s1", ttlMs: 1_000 });
    await expect(store.open(put.id, { session: "s2" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(store.open(put.shortRef, { session: "s2" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    clock += 2_000;
    await expect(store.open(put.shortRef, { session: "s1", maxAgeMs: 60_000 })).rejects.toMatchObject({
      code: "EXPIRED",
    });
    await expect(store.open(put.id, { session: "s1", maxAgeMs: -1 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("the access check wins over a content error; a corrupt blob is INTEGRITY; chunked content gives its chunks", async () => {
    const driver = new MemoryDriver();
    const store = new ArtifactStore({ driver });
    const put = await store.put("will be damaged", { session: "s1" });
    const blobKey = `blobs/sha256/${put.id.slice(0, 2)}/${put.id.slice(2, 4)}/${put.id}`;
    await driver.put(blobKey, new TextEncoder().encode("tampered"));
    await expect(store.open(put.shortRef, { session: "s1" })).rejects.toMatchObject({ code: "INTEGRITY" });
    await expect(store.open(put.id, { session: "other" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await driver.delete(blobKey);
    await expect(store.open(put.id, { session: "s1" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining("is not in the store"),
    });
    const big = "line of a large artifact\n".repeat(40_000);
    const large = await store.put(big, { session: "s1" });
    const opened = await store.open(large.shortRef, { session: "s1" });
    expect(opened.bytes).toBeUndefined();
    expect(opened.chunks?.size).toBe(big.length);
    expect(text(await opened.chunks!.read(0))).toBe(big.slice(0, (await opened.chunks!.read(0)).byteLength));
  });
});
