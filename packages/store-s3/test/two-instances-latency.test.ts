import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, startInstance, type Instance } from "./instances.js";
import { useS3 } from "./support.js";

// Two store processes on one bucket through the enforcing proxy with 20 ms added to every request
// (an S3 endpoint across a network): both write (new content, content the other writes too,
// dropped references, orphans) while one of them collects garbage with grace 0 in a loop. At this
// latency a put's steps are tens of milliseconds apart, so gc's marks and sweeps fall between them.
const fx = useS3();

describe("two processes, 20 ms per request, writing while one collects (grace 0)", () => {
  let a: Instance;
  let b: Instance;

  beforeAll(() => {
    assertBuilt();
    fx.proxy.inject({ times: Number.POSITIVE_INFINITY, fault: { delayMs: 20 } });
    const bucket = fx.s3.createBucket();
    a = startInstance(bucket, "latency-store", fx.proxy.endpoint, fx.s3.env);
    b = startInstance(bucket, "latency-store", fx.proxy.endpoint, fx.s3.env);
  });
  afterAll(async () => {
    fx.proxy.clearFaults();
    await Promise.allSettled([a?.call("exit"), b?.call("exit")]);
  });

  it("never sweeps a referenced blob or its record; every kept reference reads its exact content", {
    timeout: 240_000,
  }, async () => {
    expect(await a.call("conditionalWrites")).toBe("on");
    await b.call("gcStart");
    const [fromA, fromB] = await Promise.all([
      a.call<Array<{ id: string; text: string; session?: string }>>("churn", { tag: "A", rounds: 12 }),
      b.call<Array<{ id: string; text: string; session?: string }>>("churn", { tag: "B", rounds: 12 }),
    ]);
    const totals = await b.call<{ runs: number; swept: number }>("gcStop");
    expect(totals.runs).toBeGreaterThan(1);
    expect(totals.swept).toBeGreaterThan(0);
    await b.call("gc", { graceMs: 0, settleMs: 1_100 });
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
