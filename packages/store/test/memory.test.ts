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
});
