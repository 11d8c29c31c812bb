import { ArtifactStore, MemoryDriver, type PutIfAbsentOptions } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";

// Two real contents whose SHA-256 ids share their first 12 hex chars (89b895fb0bda).
const COLLIDING = ["aref ambiguous prefix test 14047557\n", "aref ambiguous prefix test 59967149\n"];

/** A MemoryDriver that logs every request by kind and key area. */
class LoggingDriver extends MemoryDriver {
  log: string[] = [];
  override async putIfAbsent(key: string, data: Uint8Array, _options?: PutIfAbsentOptions) {
    const result = await super.putIfAbsent(key, data);
    this.log.push(`putIfAbsent ${key.split("/")[0]} ${result.created ? "created" : "existed"}`);
    return result;
  }
  override async put(key: string, data: Uint8Array) {
    this.log.push(`put ${key.split("/")[0]}`);
    return super.put(key, data);
  }
  override async get(key: string) {
    this.log.push(`get ${key.split("/")[0]}`);
    return super.get(key);
  }
  override list(prefix: string) {
    this.log.push(`list ${prefix.split("/")[0]}`);
    return super.list(prefix);
  }
}

describe("a put's short ref and its session's earlier reference, without a listing", () => {
  it("a new put into a session: blob, record, then its reference written only if absent; no listing", async () => {
    const driver = new LoggingDriver();
    const store = new ArtifactStore({ driver });
    await store.put("warm up");
    driver.log = [];
    const put = await store.put("fresh content", { session: "s1", label: "fresh" });
    expect(driver.log.filter((line) => !line.startsWith("touch"))).toEqual([
      "putIfAbsent blobs created",
      "putIfAbsent meta created",
      "putIfAbsent refs created",
    ]);
    expect(put.shortRef).toBe(`art:${put.id.slice(0, 12)}`);
    expect(put.deduped).toBe(false);
    expect(await store.getText(put.shortRef, { session: "s1" })).toBe("fresh content");
  });

  it("a re-put into a session that holds the bytes: the conditional write finds it, the earlier label carries over", async () => {
    const driver = new LoggingDriver();
    const store = new ArtifactStore({ driver });
    const first = await store.put("held twice", { session: "s1", label: "kept label", ttlMs: 60_000 });
    driver.log = [];
    const again = await store.put("held twice", { session: "s1" });
    expect(driver.log).toContain("putIfAbsent refs existed");
    expect(driver.log).toContain("put refs");
    expect(driver.log.some((line) => line.startsWith("list"))).toBe(false);
    expect(again).toMatchObject({ id: first.id, shortRef: first.shortRef, deduped: true });
    expect(again.reference?.label).toBe("kept label");
    expect(again.reference?.expires_at).toBeUndefined(); // this put set no TTL: its reference has none
    expect((await store.listReferences("s1")).map((r) => r.label)).toEqual(["kept label"]);
  });

  it("a 12-hex short ref another artifact of the session shares: reads by it fail AMBIGUOUS_REF, never a guess", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const [a, b] = [
      await store.put(COLLIDING[0]!, { session: "s1" }),
      await store.put(COLLIDING[1]!, { session: "s1" }),
    ];
    expect(a!.id.slice(0, 12)).toBe(b!.id.slice(0, 12));
    expect(b!.shortRef).toBe(`art:${b!.id.slice(0, 12)}`); // fixed length: the put lists nothing
    await expect(store.get(b!.shortRef, { session: "s1" })).rejects.toMatchObject({
      code: "AMBIGUOUS_REF",
      details: { candidates: [`art:${a!.id.slice(0, 13)}`, `art:${b!.id.slice(0, 13)}`].sort() },
    });
    // The unique refs stay one call (or the listing) away, and the full id always reads.
    expect(await store.shortRef(b!.id, { session: "s1" })).toBe(`art:${b!.id.slice(0, 13)}`);
    expect((await store.listReferences("s1")).length).toBe(2);
    expect(await store.getText(b!.id, { session: "s1" })).toBe(COLLIDING[1]);
    // In another session without the twin, the 12-hex ref is unique.
    const c = await store.put(COLLIDING[1]!, { session: "s2" });
    expect(await store.getText(c.shortRef, { session: "s2" })).toBe(COLLIDING[1]);
  });
});
