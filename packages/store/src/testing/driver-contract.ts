import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect } from "../concurrency.js";
import type { Driver } from "../driver.js";
import { blobKey } from "../layout.js";
import { bytesOf, textOf, type DriverFactory, type DriverHarness } from "./harness.js";

export interface ContractOptions {
  /** The harness provides `reopen` (a second instance over the same backend): run the multi-instance tests. */
  multiInstance?: boolean;
}

export function runDriverContract(name: string, factory: DriverFactory, options: ContractOptions = {}): void {
  describe(`driver contract: ${name}`, () => {
    let harness: DriverHarness;
    let driver: Driver;
    beforeEach(async () => {
      harness = await factory();
      driver = harness.driver;
    });
    afterEach(async () => {
      await driver.close?.();
      await harness.cleanup?.();
    });

    it("putIfAbsent creates once and never overwrites", async () => {
      expect(await driver.putIfAbsent("a/b/one", bytesOf("first"))).toEqual({ created: true });
      expect(await driver.putIfAbsent("a/b/one", bytesOf("second"))).toEqual({ created: false });
      expect(textOf(await driver.get("a/b/one"))).toBe("first");
    });

    it("put replaces a value; get of a missing key is undefined", async () => {
      await driver.put("k/v.json", bytesOf("1"));
      await driver.put("k/v.json", bytesOf("22"));
      expect(textOf(await driver.get("k/v.json"))).toBe("22");
      expect(await driver.get("k/missing")).toBeUndefined();
      expect(await driver.head("k/missing")).toBeUndefined();
    });

    it("keeps bytes exactly: empty, binary and every byte value", async () => {
      const all = Uint8Array.from({ length: 256 * 4 }, (_, i) => i % 256);
      await driver.putIfAbsent("bin/all", all);
      await driver.putIfAbsent("bin/empty", new Uint8Array());
      expect(await driver.get("bin/all")).toEqual(all);
      expect((await driver.get("bin/empty"))?.byteLength).toBe(0);
      expect((await driver.head("bin/all"))?.size).toBe(all.byteLength);
    });

    it("returns copies: mutating a buffer after put or get changes nothing stored", async () => {
      const data = bytesOf("immutable");
      await driver.putIfAbsent("copy/x", data);
      data[0] = 0x58;
      const read = (await driver.get("copy/x"))!;
      read[1] = 0x58;
      expect(textOf(await driver.get("copy/x"))).toBe("immutable");
    });

    it("head gives size and a modification time", async () => {
      const before = Date.now();
      await driver.put("h/one", bytesOf("12345"));
      const entry = await driver.head("h/one");
      expect(entry?.key).toBe("h/one");
      expect(entry?.size).toBe(5);
      expect(entry!.modifiedAt.getTime()).toBeGreaterThan(before - 5 * 60_000);
      expect(entry!.modifiedAt.getTime()).toBeLessThan(Date.now() + 5 * 60_000);
    });

    it("delete removes once; ifUnmodifiedSince keeps newer values", async () => {
      await driver.put("d/x", bytesOf("x"));
      expect(await driver.delete("d/x", { ifUnmodifiedSince: new Date(Date.now() - 3_600_000) })).toBe(false);
      expect(await driver.get("d/x")).toBeDefined();
      expect(await driver.delete("d/x", { ifUnmodifiedSince: new Date(Date.now() + 3_600_000) })).toBe(true);
      expect(await driver.delete("d/x")).toBe(false);
      expect(await driver.get("d/x")).toBeUndefined();
    });

    it("delete of a key the caller just listed (`listed`) removes it; with ifUnmodifiedSince the time still decides", async () => {
      await driver.put("d/listed", bytesOf("x"));
      const [entry] = await collect(driver.list("d/listed"));
      expect(entry?.key).toBe("d/listed");
      const old = new Date(Date.now() - 3_600_000);
      expect(await driver.delete("d/listed", { listed: true, ifUnmodifiedSince: old })).toBe(false);
      expect(await driver.get("d/listed")).toBeDefined();
      expect(await driver.delete("d/listed", { listed: true })).toBe(true);
      expect(await driver.get("d/listed")).toBeUndefined();
      expect(await collect(driver.list("d/listed"))).toEqual([]);
    });

    it("lists by prefix, across many keys and nested levels", async () => {
      const keys = Array.from({ length: 1_100 }, (_, i) => `l/p${i % 3}/k${String(i).padStart(4, "0")}`);
      for (let i = 0; i < keys.length; i += 50) {
        await Promise.all(keys.slice(i, i + 50).map((k) => driver.putIfAbsent(k, bytesOf(k))));
      }
      await driver.put("lx/other", bytesOf("no"));
      const all = (await collect(driver.list("l/"))).map((e) => e.key).sort();
      expect(all).toEqual([...keys].sort());
      const p1 = await collect(driver.list("l/p1/"));
      expect(p1.length).toBe(keys.filter((k) => k.startsWith("l/p1/")).length);
      expect(p1.every((e) => e.size === e.key.length)).toBe(true);
      const partial = (await collect(driver.list("l/p2/k000"))).map((e) => e.key).sort();
      expect(partial).toEqual(keys.filter((k) => k.startsWith("l/p2/k000")).sort());
      expect(await collect(driver.list("nothing/"))).toEqual([]);
    });

    it("one creator wins among concurrent putIfAbsent calls", async () => {
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) => driver.putIfAbsent("race/key", bytesOf(`writer ${i}`))),
      );
      expect(results.filter((r) => r.created).length).toBe(1);
      const winner = results.findIndex((r) => r.created);
      expect(textOf(await driver.get("race/key"))).toBe(`writer ${winner}`);
    });

    it("putVersioned (where a driver has it): versions, create-only, replace-only-that-version, invalid keys", async () => {
      if (driver.putVersioned === undefined) return;
      const first = await driver.putVersioned("versioned/a", bytesOf("first"));
      expect(typeof first).toBe("string");
      expect(textOf(await driver.get("versioned/a"))).toBe("first");
      // Create-only: refused on an existing key, nothing written; allowed on a new one.
      expect(await driver.putVersioned("versioned/a", bytesOf("not created"), { ifAbsent: true })).toBeUndefined();
      expect(textOf(await driver.get("versioned/a"))).toBe("first");
      expect(typeof (await driver.putVersioned("versioned/new", bytesOf("created"), { ifAbsent: true }))).toBe(
        "string",
      );
      expect(textOf(await driver.get("versioned/new"))).toBe("created");
      const second = await driver.putVersioned("versioned/a", bytesOf("second"));
      expect(second).not.toBe(first);
      // A version that is not the current one, or a key that does not exist: nothing written.
      expect(await driver.putVersioned("versioned/a", bytesOf("stale"), { ifMatch: first! })).toBeUndefined();
      expect(textOf(await driver.get("versioned/a"))).toBe("second");
      expect(await driver.putVersioned("versioned/none", bytesOf("x"), { ifMatch: first! })).toBeUndefined();
      expect(await driver.get("versioned/none")).toBeUndefined();
      // The current version: replaced, or (a backend that cannot enforce the condition) refused unwritten.
      const third = await driver.putVersioned("versioned/a", bytesOf("third"), { ifMatch: second! });
      expect(textOf(await driver.get("versioned/a"))).toBe(third === undefined ? "second" : "third");
      await expect(driver.putVersioned("../x", bytesOf("x"))).rejects.toMatchObject({ code: "INVALID_INPUT" });
    });

    it("getVersioned (where a driver has it): the value with the version putVersioned gave, usable as ifMatch", async () => {
      if (driver.getVersioned === undefined) return;
      expect(await driver.getVersioned("versioned/missing")).toBeUndefined();
      await driver.put("versioned/plain", bytesOf("plain"));
      const plain = await driver.getVersioned("versioned/plain");
      expect(textOf(plain?.data)).toBe("plain");
      expect(typeof plain?.version).toBe("string");
      await expect(driver.getVersioned("../x")).rejects.toMatchObject({ code: "INVALID_INPUT" });
      if (driver.putVersioned === undefined) return;
      const written = await driver.putVersioned("versioned/read", bytesOf("read me"));
      const read = await driver.getVersioned("versioned/read");
      expect(textOf(read?.data)).toBe("read me");
      expect(read?.version).toBe(written);
      // Over the version read: replaced (or, a backend that cannot enforce the condition, refused unwritten).
      const next = await driver.putVersioned("versioned/read", bytesOf("over it"), { ifMatch: read!.version });
      expect(textOf(await driver.get("versioned/read"))).toBe(next === undefined ? "read me" : "over it");
      // A version read before another write is stale: nothing written.
      await driver.put("versioned/read", bytesOf("someone else"));
      expect(await driver.putVersioned("versioned/read", bytesOf("stale"), { ifMatch: read!.version })).toBeUndefined();
      expect(textOf(await driver.get("versioned/read"))).toBe("someone else");
    });

    it("putVersioned: among concurrent writers over the same version, at most one wins", async () => {
      if (driver.putVersioned === undefined) return;
      const version = (await driver.putVersioned("versioned/race", bytesOf("start")))!;
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          driver.putVersioned!("versioned/race", bytesOf(`writer ${i}`), { ifMatch: version }),
        ),
      );
      const winners = results.flatMap((r, i) => (r === undefined ? [] : [i]));
      expect(winners.length).toBeLessThanOrEqual(1);
      expect(textOf(await driver.get("versioned/race"))).toBe(winners.length === 0 ? "start" : `writer ${winners[0]}`);
    });

    it("getMany (where a driver has it): each key's value in order, as get reads it, batched blobs included", async () => {
      if (driver.getMany === undefined) return;
      expect(await driver.getMany([])).toEqual([]);
      const blobs = Array.from({ length: 40 }, (_, i) => bytesOf(`blob ${i} `.repeat(i * 37 + 1)));
      const keys = blobs.map((b) => blobKey(createHash("sha256").update(b).digest("hex")));
      const batch = driver.openBatch?.();
      for (const [i, key] of keys.entries()) {
        if (batch !== undefined && i % 10 !== 3) await batch.add(key, blobs[i]!);
        else await driver.putIfAbsent(key, blobs[i]!);
      }
      await batch?.commit();
      await driver.put("many/plain", bytesOf("plain"));
      const asked = [...keys.slice(5, 30), "many/missing", "many/plain", keys[0]!, keys[0]!, ...keys.slice(30)];
      const want = await Promise.all(asked.map((k) => driver.get(k)));
      const got = await driver.getMany(asked);
      expect(got.length).toBe(asked.length);
      for (const [i, value] of got.entries()) expect(value, asked[i]).toEqual(want[i]);
      expect(got[asked.indexOf("many/missing")]).toBeUndefined();
      expect(textOf(got[asked.indexOf("many/plain")])).toBe("plain");
      got[0]![0] = 0x58; // the values are the caller's: changing one changes nothing stored
      expect(await driver.get(asked[0]!)).toEqual(want[0]);
      await expect(driver.getMany(["ok/key", "../x"])).rejects.toMatchObject({ code: "INVALID_INPUT" });
    });

    it("rejects keys that could escape the store", async () => {
      for (const key of ["../x", "a/../../x", "/abs", "a//b", "a/./b", "a\u0000b", "a b", ""]) {
        await expect(driver.put(key, bytesOf("x")), key).rejects.toMatchObject({ code: "INVALID_INPUT" });
        await expect(driver.get(key), key).rejects.toMatchObject({ code: "INVALID_INPUT" });
      }
    });

    it("every driver refuses the same malformed listing prefixes, with INVALID_INPUT", async () => {
      for (const prefix of ["../", "a/../", "/abs", "a//b", "./a", "a b", "a\u0000", "é"]) {
        await expect(collect(driver.list(prefix)), prefix).rejects.toMatchObject({ code: "INVALID_INPUT" });
      }
      for (const prefix of ["", "a", "a/", "a/..x", "blobs/sha256/ab"])
        await expect(collect(driver.list(prefix)), prefix).resolves.toBeInstanceOf(Array);
    });

    if (options.multiInstance)
      it("a second instance over the same backend sees the first one's writes", async () => {
        await driver.putIfAbsent("shared/one", bytesOf("from A"));
        const other = await harness.reopen!();
        try {
          expect(textOf(await other.get("shared/one"))).toBe("from A");
          expect(await other.putIfAbsent("shared/one", bytesOf("from B"))).toEqual({ created: false });
          await other.put("shared/two", bytesOf("from B"));
          expect(textOf(await driver.get("shared/two"))).toBe("from B");
        } finally {
          await other.close?.();
        }
      });
  });
}
