import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useS3 } from "./support.js";

// Two separate node processes (built dist/ code), one bucket and prefix.
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..");
const fx = useS3();

interface Instance {
  call<T = unknown>(op: string, args?: Record<string, unknown>): Promise<T>;
  child: ChildProcessWithoutNullStreams;
}

function startInstance(bucket: string, prefix: string, endpoint: string): Instance {
  const child = spawn(process.execPath, [join(here, "fixtures", "instance.mjs"), bucket, prefix, endpoint], {
    cwd: packageDir,
    env: { ...process.env, ...fx.s3.env },
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += String(d)));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as {
      id: number;
      ok: boolean;
      result?: unknown;
      error?: { code: string; message: string };
    };
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.result);
    else waiter?.reject(Object.assign(new Error(message.error!.message), { code: message.error!.code }));
  });
  child.on("exit", (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`instance exited (${code}): ${stderr}`));
    pending.clear();
  });
  let next = 0;
  return {
    child,
    call: <T>(op: string, args: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
      }),
  };
}

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
    for (const pkg of ["schema", "store", "store-s3"]) {
      const dist = join(packageDir, "..", pkg, "dist", "index.js");
      if (!existsSync(dist))
        throw new Error(`${dist} is missing: build first (pnpm --filter @artifact-refs/store-s3... build)`);
    }
    bucket = fx.s3.createBucket();
    const endpoint = via === "proxy" ? fx.proxy.endpoint : fx.s3.endpoint;
    a = startInstance(bucket, "shared-store", endpoint);
    b = startInstance(bucket, "shared-store", endpoint);
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
