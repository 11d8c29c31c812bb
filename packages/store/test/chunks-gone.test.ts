import { describe, expect, it } from "vitest";
import { ChunkedWriter } from "../src/chunked.js";
import { StoreCore } from "../src/core.js";
import type { Driver, DriverBatch } from "../src/driver.js";
import { blobKey } from "../src/layout.js";
import { MemoryDriver } from "../src/memory-driver.js";
import { storeBlob } from "../src/put-steps.js";

// ~6 MB of lines: chunked, and past the first batch (the worker cuts the rest).
const content = new TextEncoder().encode(
  Array.from({ length: 120_000 }, (_, i) => `line ${i} of a large tool output ${"y".repeat(i % 23)}\n`).join(""),
);

/**
 * A memory store as a driver without `touch` (as fs is), with a batch: plain puts, and `missing`
 * (counted) answered by a head of each key, or no `missing` at all.
 */
function driverWithBatch(withMissing: boolean): { driver: Driver; memory: MemoryDriver; calls: string[][] } {
  const memory = new MemoryDriver();
  const calls: string[][] = [];
  const driver: Driver = {
    kind: "memory",
    location: memory.location,
    putIfAbsent: (k, d, o) => memory.putIfAbsent(k, d, o),
    put: (k, d) => memory.put(k, d),
    get: (k) => memory.get(k),
    head: (k) => memory.head(k),
    delete: (k, o) => memory.delete(k, o),
    list: (p) => memory.list(p),
    uri: (k) => memory.uri(k),
    openBatch(): DriverBatch {
      const batch: DriverBatch = {
        add: (k, d) => memory.putIfAbsent(k, d.slice()),
        commit: async () => undefined,
      };
      if (withMissing)
        batch.missing = async (keys) => {
          calls.push([...keys]);
          const out: string[] = [];
          for (const k of keys) if ((await memory.head(k)) === undefined) out.push(k);
          return out;
        };
      return batch;
    },
  };
  return { driver, memory, calls };
}

async function written(driver: Driver) {
  const core = new StoreCore({ driver });
  const writer = new ChunkedWriter(core, (id, bytes) => storeBlob(core, id, bytes));
  for (let at = 0; at < content.byteLength; at += 256 * 1024) await writer.write(content.slice(at, at + 256 * 1024));
  const { manifest } = await writer.finish();
  return { writer, chunkIds: [...new Set(manifest.chunks.map(([id]) => id))] };
}

describe("ChunkedWriter.chunksGone: the check of a put's chunks after its reference", () => {
  it("asks the batch once for all chunks when it can check many (DriverBatch.missing), and reports the ones gone", async () => {
    const { driver, memory, calls } = driverWithBatch(true);
    const { writer, chunkIds } = await written(driver);
    expect(chunkIds.length).toBeGreaterThan(20);
    expect(await writer.chunksGone()).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.sort()).toEqual(chunkIds.map((id) => blobKey(id)).sort());
    await memory.delete(blobKey(chunkIds[3]!)); // a gc swept two of them
    await memory.delete(blobKey(chunkIds[17]!));
    expect((await writer.chunksGone()).sort()).toEqual([chunkIds[3]!, chunkIds[17]!].sort());
    expect(calls).toHaveLength(2);
  });

  it("heads each chunk when the batch cannot check many, touches each when the driver can", async () => {
    const { driver, memory } = driverWithBatch(false);
    const { writer, chunkIds } = await written(driver);
    await memory.delete(blobKey(chunkIds[1]!));
    expect(await writer.chunksGone()).toEqual([chunkIds[1]!]);

    const direct = new MemoryDriver(); // has touch, no batch
    const { writer: other, chunkIds: ids } = await written(direct);
    await direct.delete(blobKey(ids[2]!));
    expect(await other.chunksGone()).toEqual([ids[2]!]);
  });
});
