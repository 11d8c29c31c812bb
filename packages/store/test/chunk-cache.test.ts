import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { blobKey } from "../src/layout.js";

/** A memory driver that counts gets of chunk blobs (keys it was told about). */
class CountingDriver extends MemoryDriver {
  gets = new Map<string, number>();
  override async get(key: string) {
    this.gets.set(key, (this.gets.get(key) ?? 0) + 1);
    return super.get(key);
  }
}

const log = (mib = 3) => {
  const lines: string[] = [];
  for (let i = 0, n = 0; n < mib * 1024 * 1024; i++) {
    const line = `${i} ${i % 31 === 0 ? "ERROR" : "INFO"} request ${i * 7919} took ${(i * 13) % 997}ms\n`;
    lines.push(line);
    n += line.length;
  }
  return lines.join("");
};

describe("the chunk cache: bounded reads of a chunked artifact keep verified chunks", () => {
  it("a second read of a chunk (another selector) does not fetch it again; full reads still go to the backend", async () => {
    const driver = new CountingDriver();
    const store = new ArtifactStore({ driver });
    const put = await store.put(log(), { session: "s" });
    const first = (await store.chunks(put.id))!;
    const key = (i: number) => blobKey(first.chunks[i]!.id);
    driver.gets.clear();
    const a = await first.read(5);
    const again = (await store.chunks(put.id))!; // a new request: a new ChunkedArtifact, the same store
    expect(await again.read(5)).toBe(a);
    expect(driver.gets.get(key(5))).toBe(1);
    // A full read fetches and checks every chunk from the backend.
    for await (const _ of await store.getStream(put.id)) void _;
    expect(driver.gets.get(key(5))).toBe(2);
    expect(driver.gets.get(key(0))).toBe(1);
  });

  it("a chunk corrupted after it was cached: reads keep the verified bytes (never wrong ones), a streamed read reports INTEGRITY", async () => {
    const driver = new CountingDriver();
    const store = new ArtifactStore({ driver });
    const put = await store.put(log(), { session: "s" });
    const chunked = (await store.chunks(put.id))!;
    const good = Buffer.from(await chunked.read(2));
    await driver.put(blobKey(chunked.chunks[2]!.id), new TextEncoder().encode("not the chunk"));
    expect(Buffer.from(await chunked.read(2)).equals(good)).toBe(true); // never wrong bytes
    await expect(
      (async () => {
        for await (const _ of await store.getStream(put.id)) void _;
      })(),
    ).rejects.toMatchObject({ code: "INTEGRITY" });
  });

  it("stays bounded: reading every chunk of a 40 MiB artifact keeps at most 32 MiB", async () => {
    const driver = new CountingDriver();
    const store = new ArtifactStore({ driver });
    const big = log(42); // ~42 MiB of distinct chunks
    const put = await store.put(big, { session: "s" });
    const chunked = (await store.chunks(put.id))!;
    for (let i = 0; i < chunked.chunks.length; i++) await chunked.read(i);
    driver.gets.clear();
    await chunked.read(0); // the oldest was evicted: fetched again
    expect(driver.gets.get(blobKey(chunked.chunks[0]!.id))).toBe(1);
    await chunked.read(chunked.chunks.length - 1); // the latest is kept
    expect(driver.gets.get(blobKey(chunked.chunks.at(-1)!.id))).toBeUndefined();
  });
});
