import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { ChunkedArtifact, GET_MANY_AHEAD, GET_MANY_CHUNKS } from "../src/chunked.js";
import { StoreCore } from "../src/core.js";
import { blobKey } from "../src/layout.js";
import { parseManifest } from "../src/manifest.js";
import { collect } from "./read-all.js";

/** Log-like text of about `mib` MiB (generated, chunked into many content-defined chunks). */
const log = (mib: number) => {
  const lines: string[] = [];
  for (let i = 0, n = 0; n < mib * 1024 * 1024; i++) {
    const line = `${i} ${i % 31 === 0 ? "ERROR" : "INFO"} task ${i * 7919} took ${(i * 13) % 877}ms\n`;
    lines.push(line);
    n += line.length;
  }
  return lines.join("");
};

/**
 * The memory driver with a `getMany` as the fs driver's packs give it: the values found are views of one
 * buffer, side by side in the order asked (one read of blobs packed back to back). `hold`: the call with
 * this number (0 first) answers only after the next call answered (reads that finish out of order).
 */
class RunMemoryDriver extends MemoryDriver {
  calls = 0;
  inFlight = 0;
  maxInFlight = 0;
  hold: number | undefined;
  #released: (() => void) | undefined;

  async getMany(keys: readonly string[]): Promise<(Uint8Array | undefined)[]> {
    const call = this.calls++;
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    try {
      return await this.#read(call, keys);
    } finally {
      this.inFlight--;
    }
  }

  async #read(call: number, keys: readonly string[]): Promise<(Uint8Array | undefined)[]> {
    const found = await Promise.all(keys.map((key) => this.get(key)));
    const joined = new Uint8Array(found.reduce((n, v) => n + (v?.byteLength ?? 0), 0));
    let at = 0;
    const values = found.map((v) => {
      if (v === undefined) return undefined;
      joined.set(v, at);
      at += v.byteLength;
      return joined.subarray(at - v.byteLength, at);
    });
    if (call === this.hold) await new Promise<void>((resolve) => (this.#released = resolve));
    else if (call === (this.hold ?? -2) + 1) setTimeout(() => this.#released?.(), 20);
    return values;
  }
}

const concat = (parts: readonly Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));

describe("a full read through a driver with getMany yields pieces of whole, checked chunks", () => {
  const setUp = async () => {
    const driver = new RunMemoryDriver();
    const store = new ArtifactStore({ driver });
    const text = log(5);
    const put = await store.put(text, { session: "s" });
    const artifact = (await store.chunks(put.id))!;
    expect(artifact.chunks.length).toBeGreaterThan(3 * GET_MANY_CHUNKS);
    const originals = (await Promise.all(artifact.chunks.map((c) => driver.get(blobKey(c.id))))) as Uint8Array[];
    return { driver, store, put, artifact, originals, content: Buffer.from(text) };
  };

  it("the chunks of a run that sit side by side come as one piece; pieces end on chunk boundaries", async () => {
    const { artifact, content } = await setUp();
    const { yielded, error } = await collect(artifact.stream());
    expect(error).toBeUndefined();
    expect(concat(yielded).equals(content)).toBe(true);
    expect(yielded.length).toBe(Math.ceil(artifact.chunks.length / GET_MANY_CHUNKS));
    const ends = new Set(artifact.chunks.map((c) => c.offset + c.size));
    let end = 0;
    for (const piece of yielded) {
      end += piece.byteLength;
      expect(ends.has(end)).toBe(true);
    }
  });

  it("a corrupt chunk inside a run: exactly the chunks before it are yielded, then INTEGRITY naming it", async () => {
    const { driver, artifact, originals } = await setUp();
    const bad = GET_MANY_CHUNKS + 5;
    const flipped = Uint8Array.from(originals[bad]!);
    flipped[10] = flipped[10]! ^ 1;
    await driver.put(blobKey(artifact.chunks[bad]!.id), flipped);
    const { yielded, error } = await collect(artifact.stream());
    expect(error).toMatchObject({ code: "INTEGRITY", message: expect.stringContaining(`chunk ${bad + 1} of`) });
    expect(concat(yielded).equals(concat(originals.slice(0, bad)))).toBe(true);
  });

  it("a hand-edited manifest (two intact chunks in different runs swapped): every byte, then INTEGRITY as a whole", async () => {
    const { driver, put, artifact } = await setUp();
    const manifestId = put.record.chunked!.manifest;
    const manifest = parseManifest((await driver.get(blobKey(manifestId)))!, manifestId, put.id, put.record.size_bytes);
    const [a, b] = [2, 2 * GET_MANY_CHUNKS + 1];
    [manifest.chunks[a], manifest.chunks[b]] = [manifest.chunks[b]!, manifest.chunks[a]!];
    const edited = new ChunkedArtifact(new StoreCore({ driver }), put.record, manifestId, manifest);
    const { yielded, error } = await collect(edited.stream());
    expect(concat(yielded).byteLength).toBe(artifact.size);
    expect(error).toMatchObject({ code: "INTEGRITY", message: expect.stringContaining("as a whole") });
  });

  it("runs whose reads finish out of order still go into the whole-content hash in order", async () => {
    const { driver, artifact, content } = await setUp();
    driver.calls = 0;
    driver.hold = 0; // the first run's read answers only after the second run's
    const { yielded, error } = await collect(artifact.stream());
    expect(error).toBeUndefined();
    expect(concat(yielded).equals(content)).toBe(true);
    expect(driver.calls).toBe(Math.ceil(artifact.chunks.length / GET_MANY_CHUNKS));
  });

  it("reads ahead of a slow consumer, never more than GET_MANY_AHEAD runs at once (bounded memory)", async () => {
    const { driver, artifact, content } = await setUp();
    driver.maxInFlight = 0;
    const pieces: Uint8Array[] = [];
    for await (const piece of artifact.stream()) {
      pieces.push(Uint8Array.from(piece));
      await new Promise((resolve) => setTimeout(resolve, 2)); // a consumer slower than the reads
    }
    expect(concat(pieces).equals(content)).toBe(true);
    expect(driver.maxInFlight).toBe(GET_MANY_AHEAD);
  });
});
