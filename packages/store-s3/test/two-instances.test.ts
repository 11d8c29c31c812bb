import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, startInstance, type Instance } from "./instances.js";
import { useS3 } from "./support.js";

// Two separate node processes (built dist/ code), one bucket and prefix.
const fx = useS3();

// Straight to the server (which ignores If-None-Match: the drivers fall back to HEAD-then-PUT),
// and through the proxy that enforces it like AWS S3 (conditional PUTs, 412, refresh copies).
describe.each([
  ["local server, HEAD-then-PUT", "direct", "off"],
  ["enforcing proxy, If-None-Match", "proxy", "on"],
] as const)("two processes on one bucket (%s)", (_name, via, mode) => {
  let a: Instance;
  let b: Instance;
  let bucket: string;

  beforeAll(() => {
    assertBuilt();
    bucket = fx.s3.createBucket();
    const endpoint = via === "proxy" ? fx.proxy.endpoint : fx.s3.endpoint;
    a = startInstance(bucket, "shared-store", endpoint, fx.s3.env);
    b = startInstance(bucket, "shared-store", endpoint, fx.s3.env);
  });
  afterAll(async () => {
    await Promise.allSettled([a?.call("exit"), b?.call("exit")]);
  });

  it("each process sees the other's artifacts", async () => {
    const fromA = await a.call<{ id: string; shortRef: string }>("put", {
      text: "written by process A",
      session: "shared",
    });
    const fromB = await b.call<{ id: string; shortRef: string }>("put", {
      text: "written by process B",
      session: "shared",
    });
    expect(await b.call("getText", { ref: fromA.shortRef, session: "shared" })).toBe("written by process A");
    expect(await a.call("getText", { ref: fromB.id })).toBe("written by process B");
    expect((await a.call<string[]>("list", { session: "shared" })).sort()).toEqual([fromA.id, fromB.id].sort());
    // The same bytes from the other process are deduplicated, not stored twice.
    expect(await b.call("put", { text: "written by process A" })).toMatchObject({ id: fromA.id, created: false });
    expect(await a.call("stats")).toMatchObject({ blobs: 2 });
    expect(a.child.pid).not.toBe(b.child.pid);
    expect(await a.call("conditionalWrites")).toBe(mode);
    expect(await b.call("conditionalWrites")).toBe(mode);
  });

  it("gc in one process while the other writes never sweeps a referenced blob", async () => {
    await b.call("gcStart");
    const kept = await a.call<Array<{ id: string; text: string; session?: string }>>("churn", { tag: "A", rounds: 30 });
    const totals = await b.call<{ runs: number; swept: number }>("gcStop");
    // gc really ran alongside the writer and really swept garbage.
    expect(totals.runs).toBeGreaterThan(1);
    expect(totals.swept).toBeGreaterThan(0);
    // A final collection once the last writes are a second old (S3's time precision), then
    // every reference the writer kept still reads its exact content.
    await b.call("gc", { graceMs: 0, settleMs: 1_100 });
    for (const { id, text, session } of kept) {
      expect(await b.call("getText", { ref: id, ...(session ? { session } : {}) })).toBe(text);
    }
    const report = await a.call<{ ok: boolean; problems: unknown[] }>("verify");
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    // Orphans and dropped references are gone: only referenced blobs remain.
    const stats = await a.call<{ blobs: number }>("stats");
    expect(stats.blobs).toBe(new Set([...kept.map((k) => k.id)]).size + 2);
  });
});
