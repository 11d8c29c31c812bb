import { describe, expect, it } from "vitest";
import { StagedMemoryDriver } from "@artifact-refs/store/testing";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

// Over 512 KiB: stored in chunks (manifest + several chunk blobs).
const big = Array.from({ length: 30_000 }, (_, i) => `line ${i} of a large tool output ${"x".repeat(i % 17)}`).join(
  "\n",
);

describe("a chunked put racing gc with grace 0", () => {
  it("never leaves a reference whose chunks are gone: the put fails with CONFLICT and a retry stores it", async () => {
    let clock = 1_000;
    const driver = new StagedMemoryDriver({ now: () => new Date(clock) });
    const store = new ArtifactStore({ driver, gcGraceMs: 0 });
    const { reached: atRefWrite, release } = driver.holdReferenceWrite();
    const writer = store.put(big, { session: "s1" });
    const outcome = writer.then(
      () => undefined,
      (error: unknown) => error,
    );
    await atRefWrite;

    // Chunks, manifest and record are written (t=1000), the reference is not: gc at t=2000 with
    // grace 0 sweeps them all.
    clock = 2_000;
    const report = await store.gc({ graceMs: 0 });
    expect(report.blobs_swept).toBeGreaterThan(2);
    clock = 3_000;
    release();

    expect(await outcome).toMatchObject({ code: "CONFLICT" });
    // No reference to missing content: the session holds nothing.
    await expect(store.listReferences("s1")).rejects.toMatchObject({ code: "UNKNOWN_SESSION" });
    const retry = await store.put(big, { session: "s1" });
    expect(new TextDecoder().decode(await store.get(retry.shortRef, { session: "s1" }))).toBe(big);
    expect((await store.verify()).problems).toEqual([]);
  });

  it("keeps every chunk when gc runs between the chunk writes and the reference but finds them refreshed", async () => {
    let clock = 1_000;
    const driver = new StagedMemoryDriver({ now: () => new Date(clock) });
    const store = new ArtifactStore({ driver, gcGraceMs: 0 });
    const first = await store.put(big, { session: "s0" }); // the chunks exist and are referenced
    await store.removeReference("s0", first.id);
    clock = 2_000;
    const { reached: atRefWrite, release } = driver.holdReferenceWrite();
    const writer = store.put(big, { session: "s1" }); // refreshes the chunks it writes (t=2000)
    await atRefWrite;
    clock = 3_000;
    release();
    await writer;
    const report = await store.gc({ graceMs: 0 });
    expect(report.swept).not.toContain(first.id);
    expect(new TextDecoder().decode(await store.get(first.id, { session: "s1" }))).toBe(big);
  });
});

describe("stats of chunked artifacts", () => {
  it("counts a chunked artifact's logical bytes once per reference, its chunks as stored bytes", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const size = new TextEncoder().encode(big).byteLength;
    await store.put(big, { session: "a" });
    await store.put(big, { session: "b" });
    await store.put("small", { session: "a" });
    const stats = await store.stats();
    expect(stats.references).toBe(3);
    expect(stats.logical_bytes).toBe(2 * size + 5);
    // Stored: the chunks (together the content once), the manifest and the small blob.
    expect(stats.bytes).toBeGreaterThan(size);
    expect(stats.bytes).toBeLessThan(size + 64 * 1024);
    expect(stats.dedupe_ratio).toBeGreaterThan(1.9);
  });
});
