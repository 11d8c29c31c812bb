import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ArtifactStore } from "../src/artifact-store.js";
import { MemoryDriver } from "../src/memory-driver.js";
import { PIPELINE_AFTER, WholeHash } from "../src/whole-hash.js";

const sha = (...pieces: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of pieces) h.update(p);
  return h.digest("hex");
};

/** Uneven pieces of `bytes` (1 byte to ~300 KiB). */
function pieces(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = 1 + ((i * 7919) % (300 * 1024));
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe("WholeHash: the whole-content SHA-256 of a chunked put, on a worker thread past PIPELINE_AFTER", () => {
  it("equals node:crypto's SHA-256 below and above the pipelining size, for interleaved jobs", async () => {
    const small = randomBytes(PIPELINE_AFTER - 1);
    const big = randomBytes(PIPELINE_AFTER * 3 + 12345);
    const a = new WholeHash();
    const b = new WholeHash();
    const c = new WholeHash();
    const [pa, pb] = [pieces(big), pieces(big.subarray(1000))];
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      if (pa[i]) await a.update(pa[i]!);
      if (pb[i]) await b.update(pb[i]!);
    }
    for (const p of pieces(small)) await c.update(p);
    expect(big.length).toBe(PIPELINE_AFTER * 3 + 12345); // the caller's bytes are never detached by the move to the worker
    expect(await Promise.all([a.digest(), b.digest(), c.digest()])).toEqual([
      sha(big),
      sha(big.subarray(1000)),
      sha(small),
    ]);
    expect(await new WholeHash().digest()).toBe(sha());
  });

  it("AREF_HASH_WORKER=off hashes on the main thread, with the same digest", async () => {
    const bytes = randomBytes(PIPELINE_AFTER * 2);
    process.env.AREF_HASH_WORKER = "off";
    try {
      const local = new WholeHash();
      for (const p of pieces(bytes)) await local.update(p);
      expect(await local.digest()).toBe(sha(bytes));
    } finally {
      delete process.env.AREF_HASH_WORKER;
    }
  });

  it("a dropped job leaves the worker usable for the next put", async () => {
    const bytes = randomBytes(PIPELINE_AFTER + 4096);
    const dropped = new WholeHash();
    for (const p of pieces(bytes)) await dropped.update(p);
    dropped.drop();
    const next = new WholeHash();
    for (const p of pieces(bytes)) await next.update(p);
    expect(await next.digest()).toBe(sha(bytes));
  });

  it("a 24 MiB put through the store gets the SHA-256 of its bytes as its id, and reads back byte for byte", async () => {
    const line = (i: number) => `line ${i} ${"é-🚀-".repeat(i % 5)} ${"x".repeat(i % 70)}\n`;
    const parts: string[] = [];
    for (let i = 0, n = 0; n < 24 * 1024 * 1024; i++) {
      parts.push(line(i));
      n += line(i).length;
    }
    const bytes = new TextEncoder().encode(parts.join(""));
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const put = await store.putStream(
      (async function* () {
        yield* pieces(bytes);
      })(),
      { session: "s" },
    );
    expect(put.id).toBe(sha(bytes));
    expect(put.record.chunked).toBeDefined();
    expect(Buffer.compare(Buffer.from(await store.get(put.id)), Buffer.from(bytes))).toBe(0);
  });
});
