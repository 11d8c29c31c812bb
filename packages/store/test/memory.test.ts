import { describe, expect, it } from "vitest";
import { rng } from "@artifact-refs/tooling/testing/rng";
import { MemoryDriver } from "@artifact-refs/store";
import { runDriverContract, runRecordsContract, runStoreContract } from "@artifact-refs/store/testing";

runDriverContract("memory", async () => ({ driver: new MemoryDriver() }));
runStoreContract("memory", async () => ({ driver: new MemoryDriver() }));
runRecordsContract("memory", async () => {
  const driver = new MemoryDriver();
  return { driver, reopen: async () => driver };
});

describe("MemoryDriver listing (sorted key index)", () => {
  it("lists exactly the keys with the prefix after any mix of puts and deletes", async () => {
    const r = rng(7);
    const driver = new MemoryDriver();
    const model = new Set<string>();
    const segment = () => r.pick(["a", "ab", "abc", "b", "refs", "x-1", "x_2", "Z"]);
    const key = () => Array.from({ length: 1 + r.int(3) }, segment).join("/");
    const data = new Uint8Array([1]);
    for (let step = 0; step < 3_000; step++) {
      const k = key();
      const op = r.int(4);
      if (op === 0) {
        await driver.delete(k);
        model.delete(k);
      } else {
        await (op === 1 ? driver.putIfAbsent(k, data) : driver.put(k, data));
        model.add(k);
      }
      if (step % 10 === 0) {
        const whole = key();
        const prefix = r.int(2) === 0 ? whole : whole.slice(0, r.int(whole.length + 1));
        const listed: string[] = [];
        for await (const entry of driver.list(prefix)) listed.push(entry.key);
        expect(listed.sort()).toEqual([...model].filter((m) => m.startsWith(prefix)).sort());
      }
    }
    expect(model.size).toBeGreaterThan(50);
  });

  it("a listing of many keys goes page by page: writes during it never break it, nothing is yielded twice", async () => {
    const driver = new MemoryDriver();
    const data = new Uint8Array([1]);
    const name = (i: number) => `s/${String(i).padStart(5, "0")}`;
    for (let i = 0; i < 1_000; i += 2) await driver.put(name(i), data);
    const listed: string[] = [];
    for await (const entry of driver.list("s/")) {
      listed.push(entry.key);
      if (listed.length === 100) {
        // Mid-listing: a key before the position, one far ahead, and the removal of a key ahead.
        await driver.put(name(1), data);
        await driver.put(name(901), data);
        await driver.delete(name(998));
      }
    }
    expect(listed).toEqual([...listed].sort());
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).not.toContain(name(1)); // behind the position when written
    expect(listed).toContain(name(901)); // ahead: the next page sees it
    expect(listed).not.toContain(name(998)); // removed before its page was read
    expect(listed).toHaveLength(500);
  });

  it("stopping early leaves the rest of the listing unread (the page taken is a snapshot)", async () => {
    const driver = new MemoryDriver();
    for (let i = 0; i < 600; i++) await driver.put(`k/${String(i).padStart(4, "0")}`, new Uint8Array([i % 256]));
    const first: string[] = [];
    for await (const entry of driver.list("k/")) {
      first.push(entry.key);
      if (first.length === 10) break;
    }
    expect(first).toEqual(Array.from({ length: 10 }, (_, i) => `k/${String(i).padStart(4, "0")}`));
  });
});
