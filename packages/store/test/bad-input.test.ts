import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

const invalid = (message: RegExp) =>
  expect.objectContaining({ code: "INVALID_INPUT", message: expect.stringMatching(message) });

describe("bad input to the store is INVALID_INPUT with a message, never a TypeError or a raw ZodError", () => {
  const store = new ArtifactStore({ driver: new MemoryDriver(), gcGraceMs: 0 });

  it("put refuses content that is neither text nor bytes", async () => {
    for (const content of [null, undefined, 42, { a: 1 }, [1, 2]]) {
      await expect(store.put(content as never), String(content)).rejects.toEqual(invalid(/string or bytes/));
    }
  });

  it("put and addReference validate their options", async () => {
    await expect(store.put("x", { label: {} as never })).rejects.toEqual(invalid(/put options: label/));
    await expect(store.put("x", { type: "movie" as never })).rejects.toEqual(invalid(/put options: type/));
    await expect(store.put("x", { ttlMs: "5" as never })).rejects.toEqual(invalid(/put options: ttlMs/));
    await expect(store.put("x", { ttlMs: -1 })).rejects.toEqual(invalid(/ttlMs/));
    await expect(store.put("x", { redactions: "api_key" as never })).rejects.toEqual(invalid(/redactions/));
    const { id } = await store.put("kept");
    await expect(store.addReference("s1", id, { ttlMs: -5 })).rejects.toEqual(invalid(/ttlMs/));
    await expect(store.listReferences("s1")).rejects.toMatchObject({ code: "UNKNOWN_SESSION" }); // nothing was written
  });

  it("gc refuses a negative or non-numeric grace (a negative one could sweep a blob being written)", async () => {
    const { id } = await store.put("unreferenced, young");
    await expect(store.gc({ graceMs: -60_000 })).rejects.toEqual(invalid(/graceMs/));
    await expect(store.gc({ graceMs: "x" as never })).rejects.toEqual(invalid(/graceMs/));
    await expect(store.verify({ repair: "yes" as never })).rejects.toEqual(invalid(/repair/));
    expect(await store.getText(id)).toBe("unreferenced, young");
  });

  it("a summarizer that returns garbage falls back to the default summary", async () => {
    const odd = new ArtifactStore({ driver: new MemoryDriver(), summarize: () => 42 as never });
    const { record } = await odd.put("some text to summarize");
    expect(record.summary).toBe("some text to summarize");
  });
});
