import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, startInstance, type Instance } from "./instances.js";
import { useS3 } from "./support.js";

// Two store processes on one bucket through the enforcing proxy with 20 ms added to every request
// (an S3 endpoint across a network): both write (new content, content the other writes too,
// dropped references, orphans) while one of them collects garbage in a loop. At this latency a put's
// steps are tens of milliseconds apart, so gc's marks and sweeps fall between them.
// - grace 0, in a store created without a grace floor (gcGraceFloorMs 0);
// - grace = the floor, in a store created with a floor of 4 s: puts into a session that finish their
//   reference within the floor (less its 2 s margin) skip the refresh after the reference write, and
//   gc refuses a grace below the floor.
// Nothing referenced may be lost, and garbage is still swept.
const fx = useS3();

describe.each([
  { floorMs: 0, prefix: "latency-store", title: "writing while one collects (grace 0)", settleMs: undefined },
  {
    floorMs: 4_000,
    prefix: "floor-store",
    title: "a grace floor of 4 s, writing while one collects (grace = floor)",
    settleMs: 4_500,
  },
])("two processes, 20 ms per request, $title", ({ floorMs, prefix, settleMs }) => {
  let a: Instance;
  let b: Instance;

  beforeAll(() => {
    assertBuilt();
    fx.proxy.inject({ times: Number.POSITIVE_INFINITY, fault: { delayMs: 20 } });
    const bucket = fx.s3.createBucket();
    a = startInstance(bucket, prefix, fx.proxy.endpoint, fx.s3.env, floorMs);
    b = startInstance(bucket, prefix, fx.proxy.endpoint, fx.s3.env, floorMs);
  });
  afterAll(async () => {
    fx.proxy.clearFaults();
    await Promise.allSettled([a?.call("exit"), b?.call("exit")]);
  });

  it(`never sweeps a referenced blob or its record; every kept reference reads its exact content${floorMs > 0 ? "; refuses a grace below the floor" : ""}; sweeps the garbage`, {
    timeout: 240_000,
  }, async () => {
    expect(await a.call("conditionalWrites")).toBe("on");
    if (floorMs > 0) {
      await a.call("put", { text: "creates the store with its floor" });
      await expect(b.call("gc", { graceMs: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    }
    await b.call("gcStart");
    const churn = settleMs === undefined ? {} : { settleMs };
    const [fromA, fromB] = await Promise.all([
      a.call<Array<{ id: string; text: string; session?: string }>>("churn", { tag: "A", rounds: 12, ...churn }),
      b.call<Array<{ id: string; text: string; session?: string }>>("churn", { tag: "B", rounds: 12, ...churn }),
    ]);
    const totals = await b.call<{ runs: number; swept: number }>("gcStop");
    expect(totals.runs).toBeGreaterThan(1);
    expect(totals.swept).toBeGreaterThan(0);
    await b.call("gc", { graceMs: floorMs, settleMs: floorMs + 1_100 });
    const kept = [...fromA, ...fromB];
    for (const { id, text, session } of kept) {
      expect(await a.call("getText", { ref: id, ...(session ? { session } : {}) })).toBe(text);
    }
    const report = await a.call<{ ok: boolean; problems: unknown[] }>("verify");
    expect(report.problems).toEqual([]);
    // Only referenced blobs remain (the "shared i" contents are common to both writers).
    const stats = await a.call<{ blobs: number }>("stats");
    expect(stats.blobs).toBe(new Set(kept.map((k) => k.id)).size);
  });
});
