import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it, vi } from "vitest";

// Each dynamic import after resetModules is a fresh copy of the module: a separate "instance"
// with its own random process key, as two server processes would have.
async function instance() {
  vi.resetModules();
  return import("../src/injected.js");
}

describe("the injected-tag key (issue 18: tags verify across instances)", () => {
  it("without a shared key, a tag made by one instance does not verify on another", async () => {
    const [a, b] = [await instance(), await instance()];
    const tagged = a.tagInjected("context message");
    expect(a.isInjected(tagged)).toBe(true);
    expect(b.isInjected(tagged)).toBe(false);
  });

  it("two instances on one store share its secret: tags verify both ways, and old process tags still verify", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const [a, b] = [await instance(), await instance()];
    const before = a.tagInjected("made before the store key was loaded");
    const [usedA, usedB] = await Promise.all([a.useStoreInjectedKey(store), b.useStoreInjectedKey(store)]);
    expect([usedA, usedB]).toEqual([true, true]);
    const fromA = a.tagInjected("context message");
    const fromB = b.tagInjected("context message");
    expect(fromB).toBe(fromA);
    expect(b.isInjected(fromA)).toBe(true);
    expect(a.isInjected(b.tagInjected("other text"))).toBe(true);
    expect(a.isInjected(before)).toBe(true); // this process's own earlier tags
    expect(b.isInjected(before)).toBe(false); // never another process's random key
    // The secret was written once: a third instance reads the same one.
    const c = await instance();
    await c.useStoreInjectedKey(store);
    expect(c.isInjected(fromA)).toBe(true);
    // A copied tag still covers only its own text.
    const line = fromA.slice(0, fromA.indexOf("\n") + 1);
    expect(c.isInjected(`${line}GITHUB_TOKEN=forged`)).toBe(false);
  });

  it("a configured key wins for new tags; the store's key is still accepted", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const [a, b] = [await instance(), await instance()];
    a.configureInjectedKey("0123456789abcdef0123456789abcdef");
    b.configureInjectedKey("0123456789abcdef0123456789abcdef");
    expect(await a.useStoreInjectedKey(store)).toBe(false);
    const fromA = a.tagInjected("configured");
    expect(b.isInjected(fromA)).toBe(true);
    const other = await instance();
    await other.useStoreInjectedKey(store);
    expect(a.isInjected(other.tagInjected("store key"))).toBe(true);
    expect(other.isInjected(fromA)).toBe(false);
  });

  it("bad keys: a short configured key is CONFIG_INVALID; a damaged store secret is CORRUPT_METADATA and changes nothing", async () => {
    const a = await instance();
    expect(() => a.configureInjectedKey("short")).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
    const tagged = a.tagInjected("still works");
    const driver = new MemoryDriver();
    await driver.put(a.INJECTED_KEY_STORE_KEY, new Uint8Array([1, 2, 3]));
    await expect(a.useStoreInjectedKey(new ArtifactStore({ driver }))).rejects.toMatchObject({
      code: "CORRUPT_METADATA",
    });
    expect(a.isInjected(tagged)).toBe(true);
    expect(a.tagInjected("still works")).toBe(tagged);
  });

  it("on a backend without conditional writes, two instances that both create the secret end on the same key", async () => {
    // Stand-in for an S3-compatible server that ignores If-None-Match (the driver then checks, then
    // writes): both first starts see no secret and both write one; the last write stays.
    class CheckThenWrite extends MemoryDriver {
      override async putIfAbsent(key: string, data: Uint8Array): Promise<{ created: boolean }> {
        const exists = (await this.head(key)) !== undefined;
        await new Promise((r) => setTimeout(r, 20));
        if (exists) return { created: false };
        await this.put(key, data);
        return { created: true };
      }
    }
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const store = new ArtifactStore({ driver: new CheckThenWrite() });
      const [a, b] = [await instance(), await instance()];
      const startA = a.useStoreInjectedKey(store);
      await vi.advanceTimersByTimeAsync(10); // b checks while a is between its check and its write
      const startB = b.useStoreInjectedKey(store);
      await vi.advanceTimersByTimeAsync(40);
      await Promise.all([startA, startB]);
      expect(a.tagInjected("context")).not.toBe(b.tagInjected("context")); // the race happened
      await vi.advanceTimersByTimeAsync(1_000); // each creator reads the stored secret again
      expect(a.tagInjected("context")).toBe(b.tagInjected("context"));
      expect(b.isInjected(a.tagInjected("after settling"))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
