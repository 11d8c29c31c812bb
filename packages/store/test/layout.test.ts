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
});
