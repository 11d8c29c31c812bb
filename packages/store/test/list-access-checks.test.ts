import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";

// Two real contents whose SHA-256 ids share their first 12 hex chars (89b895fb0bda).
const COLLIDING = ["aref ambiguous prefix test 14047557\n", "aref ambiguous prefix test 59967149\n"];

/** A MemoryDriver that logs reads and listings by key area. */
class ReadLog extends MemoryDriver {
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

describe("a listing of a session is the access check of a fetch within maxAgeMs", () => {
  it("by the shortest unique short ref the listing gives, or the full id: the content alone; an ambiguous prefix still lists", async () => {
    const driver = new ReadLog();
    const writer = new ArtifactStore({ driver });
    const reader = new ArtifactStore({ driver });
    const [a, b] = [
      await writer.put(COLLIDING[0]!, { session: "c" }),
      await writer.put(COLLIDING[1]!, { session: "c" }),
    ];
    const third = await writer.put("a third stash of the session", { session: "c", label: "third" });
    expect(a.id.slice(0, 12)).toBe(b.id.slice(0, 12));
    const listed = await reader.listReferences("c");
    expect(listed).toHaveLength(3);

    for (const [ref, id] of [
      [await reader.shortRef(a.id, { session: "c" }), a.id],
      [await reader.shortRef(b.id, { session: "c" }), b.id],
      [third.shortRef, third.id],
      [a.id, a.id],
      [`art:${b.id}`, b.id],
    ] as const) {
      driver.log = [];
      const opened = await reader.open(ref, { session: "c", maxAgeMs: 60_000 });
      expect({ ref, id: opened.id, log: driver.log }).toEqual({ ref, id, log: ["get blobs"] });
    }
    expect((await reader.open(third.shortRef, { session: "c", maxAgeMs: 60_000 })).reference?.label).toBe("third");

    // The 12-hex prefix both ids share is no access check of either: it lists, and is ambiguous.
    await expect(reader.open(a.shortRef, { session: "c", maxAgeMs: 60_000 })).rejects.toMatchObject({
      code: "AMBIGUOUS_REF",
    });
    // Without an age to reuse, the check is made again.
    driver.log = [];
    await reader.open(third.shortRef, { session: "c", maxAgeMs: 0 });
    expect(driver.log.sort()).toEqual(["get blobs", "get refs", "list refs"]);
  });

  it("what this instance changes after the listing is not served from it; an expired reference is not kept", async () => {
    const driver = new ReadLog();
    let clock = Date.now();
    const store = new ArtifactStore({ driver, now: () => new Date(clock) });
    const kept = await store.put("kept after the listing", { session: "d" });
    const removed = await store.put("removed after the listing", { session: "d" });
    const short = await store.put("expires soon after the listing", { session: "d", ttlMs: 1_000 });
    await store.listReferences("d");
    expect(await store.removeReference("d", removed.shortRef)).toBe(true);
    await expect(store.open(removed.shortRef, { session: "d", maxAgeMs: 60_000 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    clock += 2_000;
    await expect(store.open(short.shortRef, { session: "d", maxAgeMs: 60_000 })).rejects.toMatchObject({
      code: "EXPIRED",
    });
    expect((await store.open(kept.shortRef, { session: "d", maxAgeMs: 60_000 })).id).toBe(kept.id);
  });
});
