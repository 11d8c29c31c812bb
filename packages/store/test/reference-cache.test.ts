import { describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { ReferenceCache } from "../src/reference-cache.js";

/** A MemoryDriver that counts reference reads and can hold one until released. */
class CountingDriver extends MemoryDriver {
  refReads = 0;
  gate: Promise<void> | undefined;
  onGated: (() => void) | undefined;

  override async get(key: string): Promise<Uint8Array | undefined> {
    if (key.startsWith("refs/")) {
      this.refReads++;
      const value = await super.get(key);
      if (this.gate) {
        const gate = this.gate;
        this.gate = undefined;
        this.onGated?.();
        await gate;
      }
      return value;
    }
    return super.get(key);
  }
}

async function setup(now?: () => Date) {
  const driver = new CountingDriver();
  const store = new ArtifactStore({ driver, ...(now ? { now } : {}) });
  // Written by another instance: `store` starts with nothing cached (its own puts seed the cache, tested below).
  const writer = new ArtifactStore({ driver, ...(now ? { now } : {}) });
  const a = await writer.put("alpha content", { session: "s1" });
  const b = await writer.put("beta content", { session: "s2" });
  return { driver, store, a, b };
}

describe("ArtifactStore.reference with maxAgeMs", () => {
  it("reads the reference once, then answers from memory", async () => {
    const { driver, store, a } = await setup();
    const before = driver.refReads;
    const first = await store.reference("s1", a.shortRef, { maxAgeMs: 60_000 });
    const second = await store.reference("s1", a.shortRef, { maxAgeMs: 60_000 });
    expect(second).toEqual(first);
    expect(driver.refReads - before).toBe(1);
    // Without maxAgeMs every call reads.
    await store.reference("s1", a.shortRef);
    await store.reference("s1", a.shortRef);
    expect(driver.refReads - before).toBe(3);
  });

  it("a caller changing a reference it was handed (a put's result, a cached read) does not change later cached reads", async () => {
    const { driver, store } = await setup();
    const put = await store.put("stashed here", { session: "s1", label: "mine" });
    put.reference!.label = "changed by the caller";
    const first = await store.reference("s1", put.shortRef, { maxAgeMs: 60_000 });
    expect(first.label).toBe("mine");
    first.label = "changed again";
    const before = driver.refReads;
    const second = await store.reference("s1", put.shortRef, { maxAgeMs: 60_000 });
    expect(second.label).toBe("mine");
    expect(driver.refReads).toBe(before); // still answered from memory
  });

  it("a put's own reference answers a read by its short ref without a request, until a change", async () => {
    const { driver, store } = await setup();
    const put = await store.put("stashed here", { session: "s1", label: "mine" });
    const before = driver.refReads;
    const cached = await store.reference("s1", put.shortRef, { maxAgeMs: 60_000 });
    expect(cached).toEqual(put.reference);
    expect(driver.refReads).toBe(before);
    await store.removeReference("s1", put.shortRef);
    await expect(store.reference("s1", put.shortRef, { maxAgeMs: 60_000 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // Without maxAgeMs the put's reference is read like any other.
    const again = await store.put("stashed here", { session: "s1" });
    await store.reference("s1", again.shortRef);
    expect(driver.refReads).toBeGreaterThan(before);
  });

  it("sees this instance's removals at once (removeReference, cleanupSession, purge)", async () => {
    for (const remove of [
      (s: ArtifactStore, ref: string) => s.removeReference("s1", ref),
      (s: ArtifactStore) => s.cleanupSession("s1"),
      (s: ArtifactStore, ref: string) => s.purge(ref),
    ]) {
      const { store, a } = await setup();
      await store.reference("s1", a.shortRef, { maxAgeMs: 60_000 });
      await remove(store, a.shortRef);
      await expect(store.reference("s1", a.shortRef, { maxAgeMs: 60_000 })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    }
  });

  it("checks expiry on every hit, and a renewal with a shorter TTL is seen", async () => {
    let clock = Date.parse("2026-11-22T10:00:00Z");
    const { store } = await setup(() => new Date(clock));
    const put = await store.put("short-lived", { session: "s1", ttlMs: 60_000 });
    const first = await store.reference("s1", put.shortRef, { maxAgeMs: 3_600_000 });
    expect(first.expires_at).toBe("2026-11-22T10:01:00.000Z");
    await store.put("short-lived", { session: "s1", ttlMs: 1_000 }); // renewed, shorter
    const renewed = await store.reference("s1", put.shortRef, { maxAgeMs: 3_600_000 });
    expect(renewed.expires_at).toBe("2026-11-22T10:00:01.000Z");
    clock += 2_000;
    await expect(store.reference("s1", put.shortRef, { maxAgeMs: 3_600_000 })).rejects.toMatchObject({
      code: "EXPIRED",
    });
  });

  it("changes in one session keep the others' entries", async () => {
    const { driver, store, a } = await setup();
    await store.reference("s1", a.shortRef, { maxAgeMs: 60_000 });
    await store.put("more for s2", { session: "s2" });
    await store.cleanupSession("s2");
    const before = driver.refReads; // (a put reads its session's own earlier reference: counted before)
    await store.reference("s1", a.shortRef, { maxAgeMs: 60_000 });
    expect(driver.refReads).toBe(before);
  });

  it("another instance's removal is seen once the entry is older than maxAgeMs", async () => {
    const { driver, store, a } = await setup();
    const other = new ArtifactStore({ driver });
    await store.reference("s1", a.shortRef, { maxAgeMs: 40 });
    await other.removeReference("s1", a.shortRef);
    // Within the bound the first instance still answers from memory (the documented trade-off)…
    await expect(store.reference("s1", a.shortRef, { maxAgeMs: 60_000 })).resolves.toMatchObject({ artifact_id: a.id });
    await expect(store.reference("s1", a.shortRef)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await sleep(60);
    // …and past it, it reads again.
    await expect(store.reference("s1", a.shortRef, { maxAgeMs: 40 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a read that raced with a removal is not kept", async () => {
    const { driver, store, a } = await setup();
    let release!: () => void;
    driver.gate = new Promise((resolve) => (release = resolve));
    const gated = new Promise<void>((resolve) => (driver.onGated = resolve));
    const racing = store.reference("s1", a.shortRef, { maxAgeMs: 60_000 });
    await gated; // the read has the old reference in hand
    await store.removeReference("s1", a.shortRef);
    release();
    await expect(racing).resolves.toMatchObject({ artifact_id: a.id }); // it started before the removal
    await expect(store.reference("s1", a.shortRef, { maxAgeMs: 60_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("never keeps a miss: a reference added later is found", async () => {
    const { store } = await setup();
    const later = await store.put("added later");
    await expect(store.reference("s1", later.id, { maxAgeMs: 60_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await store.addReference("s1", later.id);
    await expect(store.reference("s1", later.id, { maxAgeMs: 60_000 })).resolves.toMatchObject({
      artifact_id: later.id,
    });
  });

  it("refuses a bad maxAgeMs", async () => {
    const { store, a } = await setup();
    for (const maxAgeMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await expect(store.reference("s1", a.shortRef, { maxAgeMs })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    }
  });
});

describe("ReferenceCache", () => {
  const reference = {
    artifact_id: "a".repeat(64),
    session_id: "s",
    type: "text",
    created_at: "2026-11-22T10:00:00.000Z",
  } as never;

  it("stays within maxEntries", () => {
    const cache = new ReferenceCache(3);
    for (let i = 0; i < 10; i++) cache.set(`s${i % 2}`, `r${i}`, reference, cache.generation(`s${i % 2}`));
    expect(cache.size).toBeLessThanOrEqual(3);
  });

  it("drops a set made with an old generation", () => {
    const cache = new ReferenceCache();
    const since = cache.generation("s");
    cache.forget("s");
    cache.set("s", "r", reference, since);
    expect(cache.get("s", "r", 60_000)).toBeUndefined();
    const global = cache.generation("s");
    cache.clear();
    cache.set("s", "r", reference, global);
    expect(cache.get("s", "r", 60_000)).toBeUndefined();
  });
});
