import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { ChunkedArtifact, SINGLE_BLOB_MAX } from "../src/chunked.js";
import { StoreCore } from "../src/core.js";
import { blobKey } from "../src/layout.js";
import { parseManifest } from "../src/manifest.js";
import { collect } from "./read-all.js";

/** Log-like text of about `mib` MiB (generated, chunked into many content-defined chunks). */
const log = (mib: number) => {
  const lines: string[] = [];
  for (let i = 0, n = 0; n < mib * 1024 * 1024; i++) {
    const line = `${i} ${i % 29 === 0 ? "WARN" : "INFO"} job ${i * 104729} done in ${(i * 17) % 991}ms\n`;
    lines.push(line);
    n += line.length;
  }
  return lines.join("");
};

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe("a full read of a chunked artifact checks every chunk before yielding it, then the whole content", () => {
  const setUp = async () => {
    const driver = new MemoryDriver();
    const store = new ArtifactStore({ driver });
    const text = log(6);
    expect(text.length).toBeGreaterThan(SINGLE_BLOB_MAX);
    const put = await store.put(text, { session: "s" });
    const artifact = (await store.chunks(put.id))!;
    const originals = await Promise.all(artifact.chunks.map((c) => driver.get(blobKey(c.id))));
    return { driver, store, put, artifact, originals: originals as Uint8Array[] };
  };

  it("yields exactly the content", async () => {
    const { artifact, originals } = await setUp();
    const { yielded, error } = await collect(artifact.stream());
    expect(error).toBeUndefined();
    expect(yielded.length).toBe(originals.length);
    expect(yielded.every((bytes, i) => same(bytes, originals[i]!))).toBe(true);
  });

  it("a corrupt chunk is never yielded: the chunks before it are, then INTEGRITY", async () => {
    const { driver, artifact, originals } = await setUp();
    const bad = 37;
    const flipped = Uint8Array.from(originals[bad]!);
    flipped[100] = flipped[100]! ^ 1;
    await driver.put(blobKey(artifact.chunks[bad]!.id), flipped);
    const { yielded, error } = await collect(artifact.stream());
    expect(error).toMatchObject({ code: "INTEGRITY", message: expect.stringContaining(`chunk ${bad + 1} of`) });
    expect(yielded.length).toBe(bad);
    expect(yielded.every((bytes, i) => same(bytes, originals[i]!))).toBe(true);
  });

  it("a hand-edited manifest (two chunks swapped, each intact) ends with INTEGRITY from the whole-content hash", async () => {
    const { driver, store, put, artifact } = await setUp();
    const manifestId = put.record.chunked!.manifest;
    const raw = (await driver.get(blobKey(manifestId)))!;
    const manifest = parseManifest(raw, manifestId, put.id, put.record.size_bytes);
    const [a, b] = [3, 60];
    expect(manifest.chunks[a]![0]).not.toBe(manifest.chunks[b]![0]);
    [manifest.chunks[a], manifest.chunks[b]] = [manifest.chunks[b]!, manifest.chunks[a]!];
    const core = new StoreCore({ driver });
    const edited = new ChunkedArtifact(core, put.record, manifestId, manifest);
    const { yielded, error } = await collect(edited.stream());
    // Every chunk passes its own check and is yielded; only the whole-content hash catches the swap.
    expect(yielded.length).toBe(artifact.chunks.length);
    expect(error).toMatchObject({ code: "INTEGRITY", message: expect.stringContaining("as a whole") });
    // The store's own read of the unedited artifact is still fine.
    expect((await collect((await store.chunks(put.id))!.stream())).error).toBeUndefined();
  });
});
