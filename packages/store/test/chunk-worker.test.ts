import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ArtifactStore } from "../src/artifact-store.js";
import { chunkJobsOpen, chunkJobsStarted, chunkWorkers, killChunkWorkers } from "../src/chunk-worker.js";
import { POOL_SLOTS, slotCounts } from "../src/chunk-slots.js";
import { metaKey } from "../src/layout.js";
import { MemoryDriver } from "../src/memory-driver.js";

const MiB = 1024 * 1024;

function content(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let x = 1;
  for (let i = 0; i < bytes; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = i % 97 === 96 ? 10 : 32 + ((x >>> 24) % 90);
  }
  return out;
}

/** `bytes` in 256 KiB pieces; `during(at)` runs before each piece (at: bytes yielded so far). */
async function* pieces(bytes: Uint8Array, during?: (at: number) => void | Promise<void>) {
  for (let at = 0; at < bytes.length; at += 256 * 1024) {
    await during?.(at);
    yield bytes.subarray(at, at + 256 * 1024);
  }
}

async function expectNothingLive(store: ArtifactStore, driver: MemoryDriver, id: string) {
  expect(await driver.get(metaKey(id))).toBeUndefined();
  expect(await store.listSessions()).toEqual([]);
  expect(chunkJobsOpen()).toBe(0);
}

const bytes = content(24 * MiB);
const id = createHash("sha256").update(bytes).digest("hex");

afterEach(() => {
  expect(chunkJobsOpen()).toBe(0); // every put's jobs closed, whatever happened
  const { slots, free } = slotCounts();
  expect(free).toBe(slots); // every pooled buffer back in the pool
  expect(slots).toBeLessThanOrEqual(POOL_SLOTS);
});

describe("the chunk worker pool: a worker that dies or throws, a stream cut mid-way", () => {
  for (const how of ["terminate", "throw"] as const) {
    it(`a worker ${how === "terminate" ? "terminated for real (worker.terminate())" : "throwing an uncaught error"} mid-put: UNAVAILABLE, nothing live, the next put works`, async () => {
      const driver = new MemoryDriver();
      const store = new ArtifactStore({ driver });
      const started = chunkJobsStarted();
      const error = await store
        .putStream(
          pieces(bytes, async (at) => {
            if (at === 12 * MiB) {
              expect(chunkJobsStarted()).toBe(started + 1); // the worker has the job by now
              killChunkWorkers(how);
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }),
          { session: "s" },
        )
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "UNAVAILABLE" });
      expect(String((error as Error).message)).toContain("chunking worker failed");
      await expectNothingLive(store, driver, id);
      // Every worker told to die has died (a busy one handles the order after the data before it).
      await vi.waitFor(() => expect(chunkWorkers()).toBe(0), { timeout: 10_000 });
      const retry = await store.putStream(pieces(bytes), { session: "s" });
      expect(retry.id).toBe(id);
      expect(
        createHash("sha256")
          .update(await store.get(id, { session: "s" }))
          .digest("hex"),
      ).toBe(id);
    }, 60_000);
  }

  it("a batch write that fails mid-put (views of pooled buffers): the write's error, nothing live, every buffer back in the pool", async () => {
    // A disk fault cannot be caused for real under a memory driver: this batch fails its 40th add, and has
    // `flushed`, so the put hands it views of the pooled buffers (as the fs pack batch gets them).
    class FailingBatchDriver extends MemoryDriver {
      openBatch() {
        let adds = 0;
        return {
          add: async (key: string, data: Uint8Array) => {
            if (++adds === 40) throw new Error("disk full (injected)");
            return this.putIfAbsent(key, data.slice());
          },
          commit: async () => undefined,
          flushed: async () => undefined,
        };
      }
    }
    const driver = new FailingBatchDriver();
    const store = new ArtifactStore({ driver });
    await expect(store.putStream(pieces(bytes), { session: "s" })).rejects.toThrow("disk full (injected)");
    await expectNothingLive(store, driver, id);
    // afterEach: every pooled buffer is back in the pool.
  }, 60_000);

  it("a stream that errors after the worker took over: its error, nothing live, the job dropped", async () => {
    const driver = new MemoryDriver();
    const store = new ArtifactStore({ driver });
    await expect(
      store.putStream(
        pieces(bytes, (at) => {
          if (at === 16 * MiB) throw new Error("connection reset");
        }),
        { session: "s" },
      ),
    ).rejects.toThrow("connection reset");
    await expectNothingLive(store, driver, id);
  }, 60_000);

  it("five puts at once into a backend that fails mid-upload: each fails with the backend's error, none hangs, every buffer comes back", async () => {
    // The one fault we cannot cause for real: a wrapper fails every chunk write after the 40th.
    class Failing extends MemoryDriver {
      writes = 0;
      override async putIfAbsent(key: string, data: Uint8Array) {
        if (key.startsWith("blobs/") && ++this.writes > 40) throw new Error("disk on fire");
        return super.putIfAbsent(key, data);
      }
    }
    const driver = new Failing();
    const store = new ArtifactStore({ driver });
    const contents = [0, 1, 2, 3, 4].map((n) => bytes.subarray(n * 1000));
    const outcomes = await Promise.allSettled(contents.map((b) => store.putStream(pieces(b), { session: "s" })));
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected", "rejected", "rejected"]);
    for (const o of outcomes) expect(String((o as PromiseRejectedResult).reason)).toContain("disk on fire");
    expect(await store.listSessions()).toEqual([]);
  }, 60_000);

  it("the pool is shared and bounded: four puts at once use at most two workers, and get the right ids", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const others = [1, 2, 3].map((n) => bytes.subarray(n * MiB));
    const results = await Promise.all([bytes, ...others].map((b) => store.putStream(pieces(b))));
    expect(results.map((r) => r.id)).toEqual(
      [bytes, ...others].map((b) => createHash("sha256").update(b).digest("hex")),
    );
    expect(chunkWorkers()).toBeLessThanOrEqual(2);
  }, 60_000);

  it("no worker keeps a process alive: a script that stashes 12 MiB and returns exits by itself", () => {
    const script = `
      import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
      const store = new ArtifactStore({ driver: new MemoryDriver() });
      const big = new Uint8Array(12 * 1024 * 1024).fill(97);
      const r = await store.putStream((async function* () { for (let i = 0; i < big.length; i += 1 << 20) yield big.subarray(i, i + (1 << 20)); })());
      console.log(r.record.chunked.chunks);
    `;
    const child = spawnSync(
      process.execPath,
      ["--conditions=@artifact-refs/source", "--import", "tsx", "--input-type=module", "-e", script],
      { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8", timeout: 60_000 },
    );
    expect(child.stderr).toBe("");
    expect(child.signal).toBeNull(); // not killed by the timeout: it ended on its own
    expect(child.status).toBe(0);
    expect(Number(child.stdout.trim())).toBeGreaterThan(40);
  }, 90_000);
});
