import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { FLOOR_MARGIN_MS } from "../src/layout-marker.js";
import { LoggingDriver } from "./logging-driver.js";

const text = (raw: Uint8Array | undefined) => (raw === undefined ? undefined : new TextDecoder().decode(raw));

/** What came after the reference write (a put writes it conditionally; over an earlier one, unconditionally). */
const afterReference = (log: string[]) =>
  log.slice(log.findIndex((line) => line === "put refs" || line === "putIfAbsent refs created") + 1);

describe("the store-wide gc grace floor (layout.json)", () => {
  it("is recorded when the store is created; a store that exists keeps its own", async () => {
    const driver = new MemoryDriver();
    await new ArtifactStore({ driver, gcGraceFloorMs: 60_000 }).put("first");
    expect(text(await driver.get("layout.json"))).toBe('{"layout":1,"gc_grace_floor_ms":60000}\n');
    // Another instance configured without a floor still obeys the store's.
    const other = new ArtifactStore({ driver, gcGraceMs: 0 });
    await other.put("second");
    await expect(other.gc({ graceMs: 0 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("below this store's grace floor of 60000 ms"),
      details: { grace_ms: 0, floor_ms: 60_000 },
    });
    // Without an explicit grace, gc uses the floor (its own default of 0 is raised to it): nothing fresh is swept.
    expect((await other.gc()).blobs_swept).toBe(0);
    expect((await other.gc({ graceMs: 60_000 })).blobs_swept).toBe(0);
    // A store created without a floor records none.
    const plain = new MemoryDriver();
    await new ArtifactStore({ driver: plain }).put("x");
    expect(text(await plain.get("layout.json"))).toBe('{"layout":1}\n');
  });

  it("refuses a bad floor option (CONFIG_INVALID) and a damaged recorded floor (CORRUPT_METADATA)", async () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new ArtifactStore({ driver: new MemoryDriver(), gcGraceFloorMs: bad }), String(bad)).toThrow(
        expect.objectContaining({ code: "CONFIG_INVALID" }),
      );
    }
    for (const damaged of ['{"layout":1,"gc_grace_floor_ms":-5}', '{"layout":1,"gc_grace_floor_ms":"60000"}']) {
      const driver = new MemoryDriver();
      await driver.put("layout.json", new TextEncoder().encode(damaged));
      await expect(new ArtifactStore({ driver }).put("x"), damaged).rejects.toMatchObject({
        code: "CORRUPT_METADATA",
        message: expect.stringContaining("gc_grace_floor_ms"),
      });
      await expect(new ArtifactStore({ driver }).gc(), damaged).rejects.toMatchObject({ code: "CORRUPT_METADATA" });
    }
  });

  it("a put into a session that finishes within the floor writes nothing after its reference; without a floor it refreshes", async () => {
    const floored = new LoggingDriver();
    const store = new ArtifactStore({ driver: floored, gcGraceFloorMs: 600_000 });
    await store.put("warm up");
    floored.log = [];
    const put = await store.put("new content", { session: "s1" });
    expect(floored.log).toEqual(["putIfAbsent blobs created", "putIfAbsent meta created", "putIfAbsent refs created"]);
    // Content stored before (another session's): the blob is refreshed at the latest with the reference write, not after.
    await store.put("shared content");
    floored.log = [];
    await store.put("shared content", { session: "s2" });
    expect(floored.log).toContain("touch blobs");
    expect(afterReference(floored.log)).toEqual([]);
    expect(text(await store.get(put.shortRef, { session: "s1" }))).toBe("new content");

    const plain = new LoggingDriver();
    const noFloor = new ArtifactStore({ driver: plain });
    await noFloor.put("warm up");
    plain.log = [];
    await noFloor.put("new content", { session: "s1" });
    expect(afterReference(plain.log)).toEqual(["touch blobs"]);
  });

  it("a put slower than the floor (less the margin) refreshes after its reference", async () => {
    const driver = new LoggingDriver();
    const store = new ArtifactStore({ driver, gcGraceFloorMs: FLOOR_MARGIN_MS + 30 });
    await store.put("warm up");
    driver.refDelayMs = 60;
    driver.log = [];
    await store.put("slow stash", { session: "s1" });
    expect(afterReference(driver.log)).toEqual(["touch blobs"]);
  });

  it("a gc that began before the store had a marker re-reads the floor a writer recorded meanwhile", async () => {
    const driver = new MemoryDriver();
    const collector = new ArtifactStore({ driver, gcGraceMs: 0 });
    const writer = new ArtifactStore({ driver, gcGraceFloorMs: 600_000 });
    let stored: { shortRef: string } | undefined;
    const run = collector.gc({
      graceMs: 0,
      onMarked: async () => {
        stored = await writer.put("written while gc marks", { session: "s1" });
      },
    });
    await expect(run).rejects.toMatchObject({ code: "INVALID_INPUT", details: { floor_ms: 600_000 } });
    expect(text(await writer.get(stored!.shortRef, { session: "s1" }))).toBe("written while gc marks");
  });
});
