import { ArtifactStore } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { FLOOR_MARGIN_MS } from "../src/layout-marker.js";
import { RecentBlobs } from "../src/put-hints.js";
import { LoggingDriver } from "./logging-driver.js";

// What a store without read-back (`verifyOnDedupe` off, the S3 default) does with what it wrote a
// moment ago: the session's reference (its version) and the blob (when, in a store with a grace floor).

const open = (gcGraceFloorMs: number) => {
  const driver = new LoggingDriver();
  return { driver, store: new ArtifactStore({ driver, verifyOnDedupe: false, gcGraceFloorMs }) };
};

/** Writes go out at once: their order is not part of the contract. */
const sorted = (log: string[]) => [...log].sort();

describe("a put that uses what this store wrote a moment ago", () => {
  it("re-put into the same session: the blob and the reference over the version written, nothing else", async () => {
    for (const floor of [600_000, 0]) {
      const { driver, store } = open(floor);
      const first = await store.put("same bytes, same session", { session: "s1", label: "kept" });
      driver.log = [];
      const again = await store.put("same bytes, same session", { session: "s1" });
      expect(sorted(driver.log), `floor ${floor}`).toEqual(["put blobs", "put refs"]);
      expect(again).toMatchObject({ created: false, deduped: true, reference: { label: "kept" } });
      expect(await store.getText(first.shortRef, { session: "s1" })).toBe("same bytes, same session");
    }
  });

  it("a reference expiring within a minute is no hold: the re-put checks the session's reference", async () => {
    const { driver, store } = open(0);
    await store.put("short-lived", { session: "s1", ttlMs: 30_000, label: "kept" });
    driver.log = [];
    const again = await store.put("short-lived", { session: "s1" });
    expect(driver.log).toContain("putIfAbsent refs existed"); // then its read: the label carries over
    expect(again).toMatchObject({ deduped: true, reference: { label: "kept" } });
  });

  it("with a grace floor, another session's put of bytes written a moment ago: the blob and its reference at once, no record write", async () => {
    const { driver, store } = open(600_000);
    await store.put("shared bytes");
    driver.log = [];
    const into = await store.put("shared bytes", { session: "s2", label: "mine" });
    expect(sorted(driver.log)).toEqual(["put blobs", "putIfAbsent refs created"]);
    expect(into).toMatchObject({ created: false, deduped: false, reference: { label: "mine" } });
    expect(await store.getText(into.shortRef, { session: "s2" })).toBe("shared bytes");
    // The session held them already: its reference is read and written over (its label carries over).
    driver.log = [];
    const other = new ArtifactStore({ driver, verifyOnDedupe: false });
    const overwritten = await other.put("shared bytes", { session: "s2" });
    expect(overwritten).toMatchObject({ deduped: true, reference: { label: "mine" } });
  });

  it("a put slower than the floor (less the margin) refreshes the blob and the record after its reference", async () => {
    const { driver, store } = open(FLOOR_MARGIN_MS + 200);
    await store.put("shared, slowly");
    driver.refDelayMs = 300;
    driver.log = [];
    await store.put("shared, slowly", { session: "s2" });
    expect(driver.log.filter((l) => !l.startsWith("put blobs"))).toEqual([
      "putIfAbsent refs created",
      "touch blobs",
      "touch meta",
    ]);
  });

  it("without a floor, or after a purge, another session's put takes the usual path (the record's conditional write)", async () => {
    const { driver, store } = open(0);
    await store.put("shared, no floor");
    driver.log = [];
    await store.put("shared, no floor", { session: "s2" });
    expect(driver.log).toContain("putIfAbsent meta existed");

    const floored = open(600_000);
    const { id } = await floored.store.put("purged");
    await floored.store.purge(id);
    floored.driver.log = [];
    const again = await floored.store.put("purged", { session: "s1" });
    expect(again.created).toBe(true);
    expect(floored.driver.log).toContain("putIfAbsent meta created");
    expect(await floored.store.getText(again.shortRef, { session: "s1" })).toBe("purged");
  });
});

describe("RecentBlobs after a clear (a purge or repair deleted blobs)", () => {
  it("a blob write reported after the clear by a put that started before it is no hint", () => {
    const recent = new RecentBlobs();
    const id = "a".repeat(64);
    const startedBefore = performance.now();
    while (performance.now() <= startedBefore); // a distinct instant
    recent.clear(); // the purge deleted the blob after this put's write: the write is reported late
    const cleared = performance.now();
    recent.set(id, startedBefore);
    expect(recent.get(id, 60_000)).toBeUndefined();
    while (performance.now() <= cleared); // a put that started after the clear
    const startedAfter = performance.now();
    recent.set(id, startedAfter);
    expect(recent.get(id, 60_000)).toBe(startedAfter);
  });
});
