import { ArtifactStore, DEFAULT_REMOTE_GC_GRACE_FLOOR_MS } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { OPERATIONS, PER_ITEM, operationContext } from "../bench/operations.js";
import type { S3Driver } from "@artifact-refs/store-s3";
import { useS3 } from "./support.js";

/**
 * Requests per store operation, counted on the wire by the fault proxy in front of the local S3
 * server (enforcing If-None-Match like AWS S3). Each count must stay at or below the value documented
 * in docs/benchmarks/store-s3.md (held in bench/operations.ts), in a store with a gc grace floor and in
 * one without: a change that adds a request to an operation fails here until the documented figure is
 * changed with it.
 */
describe("requests per store operation on S3", () => {
  const s3 = useS3();
  /** A store on a new bucket, or (`bucket`) another instance over that bucket. */
  const open = (floor = false, bucket?: string) =>
    new ArtifactStore({
      driver: s3.driver({
        via: "proxy",
        conditionalWrites: "on",
        prefix: floor ? "counts-floor" : "counts",
        ...(bucket === undefined ? {} : { bucket }),
      }),
      // A new S3 store records the default floor (60 s); the store without one opts out explicitly.
      ...(floor ? {} : { gcGraceFloorMs: 0 }),
    });
  const counted = async (fn: () => Promise<unknown>) => {
    s3.proxy.clearLog();
    await fn();
    return s3.proxy.requests.map((r) => `${r.method} ${r.key}${r.query ? `?${r.query}` : ""} ${r.status}`);
  };

  const kind = (r: string) =>
    r.includes("list-type")
      ? "LIST"
      : `${r.split(" ")[0]} ${r.includes("/refs/") ? "ref" : r.includes("/meta/") ? "meta" : "blob"}`;

  for (const floor of [true, false]) {
    it(`every operation stays within its documented count (${floor ? "with" : "without"} a grace floor)`, {
      timeout: 120_000,
    }, async () => {
      const store = open(floor);
      await store.put("warm up: the layout check");
      const ctx = operationContext("test");
      const over: string[] = [];
      for (const op of OPERATIONS) {
        const documented = floor ? op.requests : (op.withoutFloor ?? op.requests);
        for (let i = 0; i < 2; i++) {
          const state = await op.setup(store, ctx);
          const requests = await counted(() => op.run(store, state));
          if (requests.length > documented)
            over.push(`${op.name}: ${requests.length} > ${documented}\n  ${requests.join("\n  ")}`);
        }
      }
      expect(over).toEqual([]);
      await store.close();
    });
  }

  it("a new S3 store records the default grace floor (60 s); an explicit 0 records none, and gc refuses a grace below the floor", async () => {
    for (const floor of [true, false]) {
      const store = open(floor);
      await store.put(`layout check ${floor}`);
      const layout = JSON.parse(new TextDecoder().decode(await store.driver.get("layout.json")));
      expect(layout.gc_grace_floor_ms).toBe(floor ? DEFAULT_REMOTE_GC_GRACE_FLOOR_MS : undefined);
      if (floor) await expect(store.gc({ graceMs: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      await store.close();
    }
  });

  it("gc and verify stay within their documented requests per item", { timeout: 120_000 }, async () => {
    const store = open();
    const ctx = operationContext("jobs");
    const count = async (fn: () => Promise<unknown>) => (await counted(fn)).length;
    for (const item of PER_ITEM) {
      const perItem = await item.measure(count, store, ctx);
      expect({ name: item.name, perItem: perItem <= item.requests }).toEqual({ name: item.name, perItem: true });
    }
    await store.close();
  });

  it("a new put into a session reads nothing back it just wrote", async () => {
    const store = open();
    await store.put("warm up");
    const requests = await counted(() => store.put("a fresh stash for a session", { session: "fresh" }));
    // The writes, the session's listing and the refresh after the reference: no GET, no HEAD, no probe.
    expect(requests.filter((r) => r.startsWith("GET ") && !r.includes("list-type"))).toEqual([]);
    expect(requests.filter((r) => r.startsWith("HEAD ") || r.includes("aref-probe"))).toEqual([]);
    await store.close();
  });

  it("a re-put into the same session is the blob and the reference over the version this store wrote, at once; a stale version costs that write and the usual path", async () => {
    for (const floor of [true, false]) {
      const store = open(floor);
      const other = open(floor, (store.driver as S3Driver).bucket);
      const content = `a stash put twice into one session, floor ${floor}`;
      const first = await store.put(content, { session: "twice", label: "kept" });
      const requests = await counted(() => store.put(content, { session: "twice" }));
      expect(requests.map(kind).sort()).toEqual(["PUT blob", "PUT ref"]);
      const refPut = s3.proxy.requests.find((r) => r.key.includes("/refs/"))!;
      expect(refPut.headers["if-match"]).toBeDefined();
      expect(requests.every((r) => r.endsWith(" 200"))).toBe(true);
      expect((await store.reference("twice", first.shortRef)).label).toBe("kept");
      // Another instance writes the reference over: this store's version is stale, its If-Match fails (412),
      // and the put reads the stored reference (its label carries over), as a store that remembered nothing.
      await other.put(content, { session: "twice", label: "theirs" });
      const stale = await counted(() => store.put(content, { session: "twice" }));
      expect(stale.filter((r) => r.startsWith("PUT") && r.includes("/refs/") && r.endsWith(" 412"))).toHaveLength(2);
      expect((await store.reference("twice", first.shortRef)).label).toBe("theirs");
      await store.close();
      await other.close();
    }
  });

  it("a re-put into a session whose reference another instance wrote and this one listed: the blob and the reference over the version listed, at once; a change or removal in between fails that write and takes the usual path", {
    timeout: 60_000,
  }, async () => {
    for (const floor of [true, false]) {
      const store = open(floor);
      const other = open(floor, (store.driver as S3Driver).bucket);
      await store.put(`warm up: the layout check, floor ${floor}`);
      const content = `stashed by another instance, listed here, floor ${floor}`;
      const first = await other.put(content, { session: "listed", label: "theirs" });
      await store.listReferences("listed");
      const requests = await counted(() => store.put(content, { session: "listed" }));
      expect(requests.map(kind).sort()).toEqual(["PUT blob", "PUT ref"]);
      expect(s3.proxy.requests.find((r) => r.key.includes("/refs/"))!.headers["if-match"]).toBeDefined();
      expect(requests.every((r) => r.endsWith(" 200"))).toBe(true);
      expect((await other.reference("listed", first.shortRef)).label).toBe("theirs");

      // Changed there after the listing here: If-Match answers 412, the stored reference's label carries over.
      await store.listReferences("listed");
      await other.put(content, { session: "listed", label: "changed", summary: "changed there" });
      const changed = await counted(() => store.put(content, { session: "listed" }));
      expect(changed.filter((r) => r.includes("/refs/") && r.startsWith("PUT") && r.endsWith(" 412"))).toHaveLength(2);
      expect((await other.reference("listed", first.shortRef)).summary).toBe("changed there");

      // Removed there after the listing here: If-Match on the missing key fails (404), the put creates it anew.
      await store.listReferences("listed");
      expect(await other.removeReference("listed", first.shortRef)).toBe(true);
      const removed = await counted(() => store.put(content, { session: "listed" }));
      expect(removed.some((r) => r.includes("/refs/") && r.startsWith("PUT") && r.endsWith(" 404"))).toBe(true);
      const again = await other.reference("listed", first.shortRef);
      expect(again.label).toBeUndefined();
      expect(await other.getText(first.shortRef, { session: "listed" })).toBe(content);
      await store.close();
      await other.close();
    }
  });

  it("with a grace floor, a new put into a session is its writes, then its reference (written only if absent): no listing, nothing after", async () => {
    const store = open(true);
    await store.put("warm up");
    const requests = await counted(() => store.put("a fresh stash, floor store", { session: "fresh" }));
    const kinds = requests.map(kind);
    expect(kinds.slice(0, 2).sort()).toEqual(["PUT blob", "PUT meta"]);
    expect(kinds.slice(2)).toEqual(["PUT ref"]);
    expect(requests.every((r) => r.endsWith(" 200"))).toBe(true); // each conditional write created its key
    await store.close();
  });
});
