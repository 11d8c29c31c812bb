import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, startInstance, type Instance } from "./instances.js";
import { useS3 } from "./support.js";

// The same two-process churn as two-instances-latency.test.ts (20 ms added to every request), in a
// store created with a gc grace floor of 4 s: puts into a session that finish their reference within
// the floor (less its 2 s margin) skip the refresh after the reference write, while the other process
// collects in a loop with grace = the floor. Nothing referenced may be lost, and garbage is still swept.
const FLOOR_MS = 4_000;
const fx = useS3();

describe("two processes, 20 ms per request, a grace floor of 4 s, writing while one collects (grace = floor)", () => {
  let a: Instance;
  let b: Instance;

  beforeAll(() => {
    assertBuilt();
    fx.proxy.inject({ times: Number.POSITIVE_INFINITY, fault: { delayMs: 20 } });
    const bucket = fx.s3.createBucket();
    a = startInstance(bucket, "floor-store", fx.proxy.endpoint, fx.s3.env, FLOOR_MS);
    b = startInstance(bucket, "floor-store", fx.proxy.endpoint, fx.s3.env, FLOOR_MS);
  });
  afterAll(async () => {
    fx.proxy.clearFaults();
    await Promise.allSettled([a?.call("exit"), b?.call("exit")]);
  });

  it("never sweeps a referenced blob or its record; refuses a grace below the floor; sweeps the garbage", {
    timeout: 240_000,
  }, async () => {
    expect(await a.call("conditionalWrites")).toBe("on");
    await a.call("put", { text: "creates the store with its floor" });
    await expect(b.call("gc", { graceMs: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await b.call("gcStart");
    const [fromA, fromB] = await Promise.all([
      a.call<Array<{ id: string; text: string; session?: string }>>("churn", { tag: "A", rounds: 12, settleMs: 4_500 }),
      b.call<Array<{ id: string; text: string; session?: string }>>("churn", { tag: "B", rounds: 12, settleMs: 4_500 }),
    ]);
    const totals = await b.call<{ runs: number; swept: number }>("gcStop");
    expect(totals.runs).toBeGreaterThan(1);
    expect(totals.swept).toBeGreaterThan(0);
    await b.call("gc", { graceMs: FLOOR_MS, settleMs: FLOOR_MS + 1_100 });
    const kept = [...fromA, ...fromB];
    for (const { id, text, session } of kept) {
      expect(await a.call("getText", { ref: id, ...(session ? { session } : {}) })).toBe(text);
    }
    const report = await a.call<{ ok: boolean; problems: unknown[] }>("verify");
    expect(report.problems).toEqual([]);
    const stats = await a.call<{ blobs: number }>("stats");
    expect(stats.blobs).toBe(new Set(kept.map((k) => k.id)).size);
  });
});
