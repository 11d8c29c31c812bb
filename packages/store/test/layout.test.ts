import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";

describe("layout marker", () => {
  it("is written by the first put even when gc or verify ran first on an empty store", async () => {
    for (const first of ["verify", "gc"] as const) {
      const driver = new MemoryDriver();
      const store = new ArtifactStore({ driver });
      await store[first]();
      expect(await driver.get("layout.json")).toBeUndefined(); // reading writes nothing
      await store.put("x");
      expect(new TextDecoder().decode(await driver.get("layout.json"))).toBe('{"layout":1}\n');
    }
  });

  it("a damaged marker is CORRUPT_METADATA with a way to fix it; a newer layout is UNSUPPORTED", async () => {
    for (const damaged of ["\u0000\u0001garbage", "null", "[]", '{"layout":"1"}', "{}"]) {
      const driver = new MemoryDriver();
      await driver.put("layout.json", new TextEncoder().encode(damaged));
      const error = await new ArtifactStore({ driver }).put("x").catch((e: unknown) => e);
      expect(error, damaged).toMatchObject({
        code: "CORRUPT_METADATA",
        message: expect.stringContaining("layout.json"),
        hint: expect.stringContaining('{"layout":1}'),
      });
    }
    const driver = new MemoryDriver();
    await driver.put("layout.json", new TextEncoder().encode('{"layout":99}'));
    await expect(new ArtifactStore({ driver }).put("x")).rejects.toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringMatching(/layout 99/),
    });
  });
});
