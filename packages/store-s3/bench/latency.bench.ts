// `pnpm --filter @artifact-refs/store-s3 bench:latency`: store operations through the fault proxy with
// an added delay per request (BENCH_DELAY_MS, default 20 ms, like an S3 endpoint across a network), side
// by side with raw SDK calls doing the minimum requests the design needs, in the same run. Wall time is
// reported in round trips (median wall / median wall of one raw GetObject at the same delay).
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  DeleteObjectCommand,
} from "@aws-sdk/client-s3";
import { ArtifactStore } from "@artifact-refs/store";
import { S3Driver } from "@artifact-refs/store-s3";
import { machine } from "@artifact-refs/tooling/bench/harness";
import { startFaultProxy } from "@artifact-refs/tooling/s3/fault-proxy";
import { startS3ServerProcess } from "@artifact-refs/tooling/s3/server";
import { OPERATIONS, operationContext } from "./operations.js";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 20);
const reps = Number(process.env.BENCH_REPEAT ?? 9);
const bucket = "bench-latency";
const s3 = await startS3ServerProcess({ buckets: [bucket] });
Object.assign(process.env, s3.env);
const proxy = await startFaultProxy({ target: s3.endpoint, enforceIfNoneMatch: true });
proxy.inject({ times: Number.POSITIVE_INFINITY, fault: { delayMs } });
const prefix = `latency-${Date.now()}`;
const driver = new S3Driver({
  bucket,
  prefix,
  endpoint: proxy.endpoint,
  forcePathStyle: true,
  region: s3.region,
  conditionalWrites: "on",
});
// A store with a gc grace floor (layout.json): a put into a session skips the refresh after its reference.
const store = new ArtifactStore({ driver }); // S3 default: a 60 s gc grace floor
await store.put("warm up: the layout check");
const raw = new S3Client({ ...s3.clientConfig(), endpoint: proxy.endpoint });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// Raw SDK: the minimum requests of each operation, with the same dependencies (what must wait for what).
let k = 0;
const key = () => `${prefix}/raw/${k++}-${Math.random().toString(36).slice(2)}`;
const body = new TextEncoder().encode("raw minimum ".repeat(40));
const put = (Key: string, IfNoneMatch?: string) =>
  raw.send(new PutObjectCommand({ Bucket: bucket, Key, Body: body, ...(IfNoneMatch ? { IfNoneMatch } : {}) }));
const put412 = (Key: string) => put(Key, "*").catch(() => undefined);
const get = async (Key: string) =>
  (await raw.send(new GetObjectCommand({ Bucket: bucket, Key }))).Body!.transformToByteArray();
const list = (Prefix: string) => raw.send(new ListObjectsV2Command({ Bucket: bucket, Prefix }));
const existing = `${prefix}/raw/existing`;
await put(existing);
const minimum: Record<string, { requests: number; run: () => Promise<unknown> }> = {
  "put, new content, no session": { requests: 2, run: () => Promise.all([put(key(), "*"), put(key(), "*")]) },
  "put, existing content, no session": { requests: 2, run: () => Promise.all([put412(existing), put412(existing)]) },
  "put, new content, into a session": {
    requests: 3,
    run: async () => {
      await Promise.all([put(key(), "*"), put(key(), "*")]);
      await put(key());
    },
  },
  "put, new content, into a session with a TTL": {
    requests: 3,
    run: async () => {
      await Promise.all([put(key(), "*"), put(key(), "*")]);
      await put(key());
    },
  },
  "put, content another session stored, into a new session": {
    requests: 2,
    run: async () => {
      await put412(existing);
      await put(key());
    },
  },
  "put, content another session stored, into a new session, stored by another instance": {
    requests: 2,
    run: async () => {
      await put412(existing);
      await put(key());
    },
  },
  "put, content the same session already holds": {
    requests: 2,
    run: async () => {
      await put412(existing);
      await put(key());
    },
  },
  "put, content the same session already holds, stored by another instance": {
    requests: 2,
    run: async () => {
      await put412(existing);
      await put(key());
    },
  },
  "put, content the same session already holds, stored by another instance, listed here": {
    requests: 2,
    run: async () => {
      await put412(existing);
      await put(key());
    },
  },
  "get by id": { requests: 1, run: () => get(existing) },
  "get by short ref in a session": {
    requests: 3,
    run: async () => {
      await list(existing);
      await Promise.all([get(existing), get(existing)]);
    },
  },
  // Without versions in the listing: the listing, then the reference and the content (the store reads no reference).
  "get by short ref in a session, stored by another instance": {
    requests: 3,
    run: async () => {
      await list(existing);
      await Promise.all([get(existing), get(existing)]);
    },
  },
  "bounded fetch through open() after this instance listed the session": { requests: 1, run: () => get(existing) },
  "bounded fetch through open(), access check past its age, reference unchanged": {
    requests: 3,
    run: async () => {
      await list(existing);
      await Promise.all([get(existing), get(existing)]);
    },
  },
  "bounded fetch by short ref in a session, cold (access check + content)": {
    requests: 3,
    run: async () => {
      await list(existing);
      await Promise.all([get(existing), get(existing)]);
    },
  },
  "bounded fetch cold through open() (access check and content at once)": {
    requests: 3,
    run: async () => {
      await list(existing);
      await Promise.all([get(existing), get(existing)]);
    },
  },
  "bounded fetch by short ref, right after this instance stashed it": { requests: 1, run: () => get(existing) },
  "bounded fetch, access check reused (second fetch)": { requests: 1, run: () => get(existing) },
  "list a session of 3 references": {
    requests: 4,
    run: async () => {
      await list(existing);
      await Promise.all([get(existing), get(existing), get(existing)]);
    },
  },
  "list a session of 3 references, stored by another instance": {
    requests: 4,
    run: async () => {
      await list(existing);
      await Promise.all([get(existing), get(existing), get(existing)]);
    },
  },
  "list a session of 3 references again, one changed by another instance since": {
    requests: 4,
    run: async () => {
      await list(existing);
      await Promise.all([get(existing), get(existing), get(existing)]);
    },
  },
  "remove a reference (by short ref)": {
    requests: 2,
    run: async () => {
      const Key = key();
      proxy.clearFaults(); // the setup write is not part of the operation
      await put(Key);
      proxy.inject({ times: Number.POSITIVE_INFINITY, fault: { delayMs } });
      const t = performance.now();
      await list(Key);
      await raw.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
      return performance.now() - t;
    },
  },
};

const timed = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  const inner = await fn();
  return typeof inner === "number" ? inner : performance.now() - t;
};
for (let i = 0; i < 5; i++) await get(existing); // warm the connections
const oneTrip: number[] = [];
for (let i = 0; i < reps * 2; i++) oneTrip.push(await timed(() => get(existing)));
const roundTrip = median(oneTrip);

console.log(`machine: ${machine()}`);
console.log(
  `delay: ${delayMs} ms per request at the proxy; one round trip (raw GetObject, median) = ${roundTrip.toFixed(1)} ms; ${reps} runs per operation, median`,
);
console.log(
  "\n| operation | store requests | store wall (round trips) | minimum requests | raw SDK minimum (round trips) | store / minimum |\n|---|---:|---:|---:|---:|---:|",
);
const ctx = operationContext("latency");
for (const op of OPERATIONS) {
  const storeTimes: number[] = [];
  const rawTimes: number[] = [];
  let requests = 0;
  const min = minimum[op.name];
  for (let i = 0; i < reps; i++) {
    proxy.clearFaults();
    const state = await op.setup(store, ctx);
    proxy.inject({ times: Number.POSITIVE_INFINITY, fault: { delayMs } });
    // Alternate the order so both see the same machine load.
    const a = async () => {
      proxy.clearLog();
      storeTimes.push(await timed(() => op.run(store, state)));
      requests += proxy.requests.length;
    };
    const b = async () => {
      if (min) rawTimes.push(await timed(min.run));
    };
    if (i % 2 === 0) {
      await a();
      await b();
    } else {
      await b();
      await a();
    }
  }
  const s = median(storeTimes);
  const r = min ? median(rawTimes) : Number.NaN;
  console.log(
    `| ${op.name} | ${+(requests / reps).toFixed(2)} | ${(s / roundTrip).toFixed(2)} | ${min?.requests ?? "–"} | ${(r / roundTrip).toFixed(2)} | **${(s / r).toFixed(2)}×** |`,
  );
}
await store.close();
raw.destroy();
await proxy.stop();
await s3.stop();
