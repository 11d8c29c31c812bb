import { randomBytes } from "node:crypto";
import { isArefError } from "@artifact-refs/schema";
import { ArtifactStore } from "@artifact-refs/store";
import { metaKey } from "@artifact-refs/store/internal";
import { S3Driver } from "@artifact-refs/store-s3";
import { startFaultProxy, type FaultProxy, type LoggedRequest } from "@artifact-refs/tooling/s3/fault-proxy";
import { startS3Server, type S3TestServer } from "@artifact-refs/tooling/s3/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../src/files.js";
import { rng } from "@artifact-refs/tooling/testing/rng";
import { seedFromEnv } from "../src/seed.js";
import { scale } from "../src/scale.js";
import { report } from "../src/summary.js";

/**
 * The S3 driver through the fault proxy, with throttling, 5xx, connection resets (before
 * the answer and mid-body), stalls and slow answers injected at random into about a
 * quarter of all requests. Every put either succeeds and reads back byte-exact through a
 * proxy-free client, or fails with a clear ArefError; no partial object is ever stored;
 * no request is tried more than maxAttempts times.
 */
const MAX_ATTEMPTS = 5;

let s3: S3TestServer;
let proxy: FaultProxy;
beforeAll(async () => {
  s3 = await startS3Server();
  proxy = await startFaultProxy({ target: s3.endpoint, enforceIfNoneMatch: true });
});
afterAll(async () => {
  await proxy?.stop();
  await s3?.stop();
});

/** Requests of one operation per kind of request: same method, key, kind of query, copy or not, conditional or not. */
function maxAttemptsIn(log: LoggedRequest[]): number {
  const counts = new Map<string, number>();
  for (const r of log) {
    const h = r.headers;
    const k = `${r.method} ${r.key} ${r.query.replace(/=[^&]*/g, "")} ${h["x-amz-copy-source"] ? "copy" : ""} ${h["if-none-match"] ? "if-none-match" : ""}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
}

describe("S3 faults", () => {
  it("random throttling, 5xx, resets, stalls and slow answers: puts succeed or fail clearly, nothing partial, retries bounded", async () => {
    const seed = seedFromEnv();
    const r = rng(seed);
    const bucket = s3.createBucket();
    const common = {
      bucket,
      forcePathStyle: true,
      region: "us-east-1",
      clientConfig: { credentials: s3.credentials },
    } as const;
    const faulty = new S3Driver({
      ...common,
      endpoint: proxy.endpoint,
      conditionalWrites: "on",
      maxAttempts: MAX_ATTEMPTS,
      retryBaseDelayMs: 5,
      throttleBaseDelayMs: 10,
      retryMaxDelayMs: 200,
      requestTimeoutMs: 1_500,
    });
    const direct = new S3Driver({ ...common, endpoint: s3.endpoint, conditionalWrites: "off" });
    const store = new ArtifactStore({ driver: faulty, gcGraceFloorMs: 0 }); // gc runs with grace 0
    const clean = new ArtifactStore({ driver: direct, gcGraceFloorMs: 0 });

    const chance = (p: number) => () => r.next() < p;
    proxy.clearFaults();
    const rules = [
      { fault: { status: 503, code: "SlowDown" }, p: 0.06 },
      { fault: { status: 500 }, p: 0.04 },
      { fault: { status: 429, code: "TooManyRequests" }, p: 0.02 },
      { fault: { reset: "before" as const }, p: 0.04 },
      { fault: { reset: "mid-body" as const }, p: 0.04 },
      { fault: { reset: "stall" as const }, p: 0.004 },
      { fault: { delayMs: 30 }, p: 0.03 },
      { fault: { delayMs: 250 }, p: 0.01 },
    ];
    // Now and then an outage: every request fails while it lasts, so puts must fail (clearly).
    let outage = false;
    proxy.inject({
      match: { predicate: () => outage && r.next() < 0.9 },
      times: Number.POSITIVE_INFINITY,
      fault: { status: 503, code: "SlowDown" },
    });
    for (const rule of rules)
      proxy.inject({ match: { predicate: chance(rule.p) }, times: Number.POSITIVE_INFINITY, fault: rule.fault });

    const ops = scale(100, 1_500);
    const failures: string[] = [];
    const acked = new Map<string, Uint8Array>();
    const failedCodes: Record<string, number> = {};
    let puts = 0;
    let gets = 0;
    let putFailed = 0;
    let getFailed = 0;
    let worstAttempts = 0;
    const started = Date.now();
    for (let i = 0; i < ops; i++) {
      const before = proxy.requests.length;
      outage = i % 20 === 19;
      const isGet = acked.size > 0 && r.next() < 0.3;
      if (isGet) {
        gets++;
        const ids = [...acked.keys()];
        const id = ids[r.int(ids.length)]!;
        try {
          const bytes = await store.get(id);
          if (Buffer.compare(Buffer.from(bytes), Buffer.from(acked.get(id)!)) !== 0)
            failures.push(`get ${id} returned different bytes`);
        } catch (error) {
          getFailed++;
          if (!isArefError(error) || error.code !== "UNAVAILABLE" || !error.hint)
            failures.push(`get ${id} failed unclearly: ${(error as Error).message}`);
          else failedCodes[`get:${error.code}`] = (failedCodes[`get:${error.code}`] ?? 0) + 1;
        }
      } else {
        puts++;
        const bytes =
          r.next() < 0.5 ? randomBytes(1 + r.int(64 * 1024)) : Buffer.from(`dedupe ${r.int(40)}\n`.repeat(50));
        try {
          const put = await store.put(bytes, { session: "faults" });
          if (put.id !== sha256(bytes)) failures.push(`put returned the wrong id ${put.id}`);
          const back = await clean.get(put.id); // proxy-free: what is really stored
          if (Buffer.compare(Buffer.from(back), bytes) !== 0) failures.push(`put ${put.id} stored different bytes`);
          acked.set(put.id, bytes);
        } catch (error) {
          putFailed++;
          const ok =
            isArefError(error) &&
            ["UNAVAILABLE", "DEADLINE_EXCEEDED", "CONFLICT"].includes(error.code) &&
            error.message.length > 0 &&
            !!error.hint;
          if (!ok)
            failures.push(`put failed unclearly: ${(error as { code?: string }).code} ${(error as Error).message}`);
          else failedCodes[`put:${error.code}`] = (failedCodes[`put:${error.code}`] ?? 0) + 1;
        }
      }
      const attempts = maxAttemptsIn(proxy.requests.slice(before));
      worstAttempts = Math.max(worstAttempts, attempts);
      // A put may touch the same key twice on purpose (the blob's existence check after its
      // reference is written), each with its own attempts.
      if (attempts > 2 * MAX_ATTEMPTS)
        failures.push(`op ${i}: ${attempts} requests for one key (max ${MAX_ATTEMPTS} attempts each)`);
    }
    const requests = proxy.requests.length;
    const faults = proxy.requests.filter((q) => q.fault !== undefined).length;
    proxy.clearFaults();

    // No partial object: every blob stored hashes to its id; verify (no faults now) repairs what an interrupted put left.
    let objects = 0;
    for await (const entry of direct.list("blobs/")) {
      objects++;
      const m = /([0-9a-f]{64})$/.exec(entry.key);
      const bytes = await direct.get(entry.key);
      if (!m || !bytes || sha256(bytes) !== m[1]) failures.push(`partial or corrupt object ${entry.key}`);
    }
    const repaired = await clean.verify({ repair: true });
    for (const p of repaired.problems)
      if (!p.repaired) failures.push(`verify could not repair ${p.kind} ${p.key}: ${p.message}`);
    for (const id of acked.keys()) {
      try {
        await clean.get(id);
      } catch (error) {
        failures.push(`acknowledged put ${id} unreadable: ${(error as Error).message}`);
      }
    }
    report(
      "s3-faults",
      `${ops} operations (${puts} puts, ${gets} gets; ${requests} requests, ${faults} faults injected): ${putFailed} puts and ${getFailed} gets failed cleanly, ${failures.length} failures, worst ${worstAttempts} requests for one key in one operation (seed ${seed})`,
      {
        ops,
        puts,
        gets,
        requests,
        faults,
        put_failed: putFailed,
        get_failed: getFailed,
        failed_codes: failedCodes,
        failures: failures.length,
        objects,
        worst_attempts: worstAttempts,
        repaired: repaired.problems.length,
        seconds: Math.round((Date.now() - started) / 1000),
        seed,
      },
    );
    expect(failures.slice(0, 30)).toEqual([]);
    expect(faults).toBeGreaterThan(0);
    expect(acked.size).toBeGreaterThan(0);
    expect(putFailed + getFailed).toBeGreaterThan(0); // the outages made some fail, and each failure was clear
  });

  it("a chunked put failing mid-upload (every chunk write failing after the 6th) leaves nothing live; the retry succeeds and gc keeps it", async () => {
    const bucket = s3.createBucket();
    const common = {
      bucket,
      forcePathStyle: true,
      region: "us-east-1",
      clientConfig: { credentials: s3.credentials },
    } as const;
    const faulty = new S3Driver({
      ...common,
      endpoint: proxy.endpoint,
      conditionalWrites: "on",
      maxAttempts: 3,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 50,
      requestTimeoutMs: 5_000,
    });
    const direct = new S3Driver({ ...common, endpoint: s3.endpoint, conditionalWrites: "off" });
    const store = new ArtifactStore({ driver: faulty, gcGraceFloorMs: 0 }); // gc runs with grace 0
    const clean = new ArtifactStore({ driver: direct, gcGraceFloorMs: 0 });
    const r = rng(seedFromEnv());
    const lines: string[] = [];
    for (let i = 0, n = 0; n < 3 * 1024 * 1024; i++) {
      const line = `${i} ${r.int(1_000_000).toString(36)} worker-${r.int(16)} ${"ok ".repeat(1 + r.int(12))}\n`;
      lines.push(line);
      n += line.length;
    }
    const bytes = Buffer.from(lines.join(""));
    const id = sha256(bytes);

    // Blob writes: the first 6 chunks go through, then every chunk write fails (all attempts).
    const seen = new Set<string>();
    proxy.clearFaults();
    proxy.clearLog();
    proxy.inject({
      match: {
        method: "PUT",
        predicate: (q) => {
          if (!q.key.includes("blobs/")) return false;
          seen.add(q.key);
          return seen.size > 6;
        },
      },
      times: Number.POSITIVE_INFINITY,
      fault: { status: 500 },
    });
    const failed = await store.put(bytes, { session: "chunked" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    proxy.clearFaults();
    expect(isArefError(failed) && failed.code === "UNAVAILABLE" && !!failed.hint, String(failed)).toBe(true);
    expect(seen.size).toBeGreaterThan(6); // it failed mid-upload, after some chunks were stored
    // Nothing live: no record, no reference, not listed, not readable.
    expect(await direct.get(metaKey(id))).toBeUndefined();
    expect(await clean.listSessions()).toEqual([]);
    expect(await clean.has(id)).toBe(false);

    // The retry succeeds, byte for byte; a gc (grace 0, nothing else running) keeps every chunk it needs.
    const retry = await store.put(bytes, { session: "chunked" });
    expect(retry.id).toBe(id);
    expect(retry.record.chunked!.chunks).toBeGreaterThan(8);
    await clean.gc({ graceMs: 0 });
    expect(Buffer.compare(Buffer.from(await clean.get(id)), bytes)).toBe(0);
    expect((await clean.verify()).problems).toEqual([]);
  });
});
