// `pnpm bench`: the S3 driver against raw SDK calls, side by side in one run, on the local
// S3-compatible server (fauxqs on 127.0.0.1, in a child process); then the requests each operation costs,
// counted on the wire by the fault proxy (which enforces If-None-Match like AWS S3).
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { ArtifactStore } from "@artifact-refs/store";
import { S3Driver } from "@artifact-refs/store-s3";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";
import { startFaultProxy } from "@artifact-refs/tooling/s3/fault-proxy";
import { startS3ServerProcess } from "@artifact-refs/tooling/s3/server";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
// The server runs in its own process, so the timings here are the client's side only.
const bucket = "bench-artifacts";
const s3 = await startS3ServerProcess({ buckets: [bucket] });
Object.assign(process.env, s3.env); // the SDK credential chain of the drivers
const raw = new S3Client(s3.clientConfig());
// "on": one conditional PUT per new key, the path taken on AWS S3, MinIO and R2. The local
// server ignores the condition, so keys can be rotated without 412s.
const driver = new S3Driver({
  bucket,
  prefix: "bench",
  endpoint: s3.endpoint,
  forcePathStyle: true,
  region: s3.region,
  conditionalWrites: "on",
});
const time = Number(process.env.BENCH_TIME_MS ?? 1_000);
const ROTATE = 64;

console.log(`machine: ${machine()}`);
console.log(`server: fauxqs in a child process (pid ${s3.pid}) on ${s3.endpoint}; ${time} ms per case`);

// Two measurements per size. (1) The harness's side-by-side table (tinybench runs each case
// for `time` ms in turn). (2) Paired timing for the headline ratio: raw and driver calls
// alternate (ABBA order) so both see the same machine load; this machine is shared and noisy,
// and load swings between tinybench's consecutive cases otherwise dominate the ratio.
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function paired(iterations: number, raw: () => Promise<unknown>, drv: () => Promise<unknown>) {
  const a: number[] = [];
  const b: number[] = [];
  const timed = async (fn: () => Promise<unknown>, into: number[]) => {
    const t = performance.now();
    await fn();
    into.push(performance.now() - t);
  };
  for (let i = 0; i < 20; i++) await Promise.all([raw(), drv()].map((p) => p.then(() => undefined))); // warm-up
  a.length = b.length = 0;
  for (let i = 0; i < iterations; i++) {
    if (i % 2 === 0) {
      await timed(raw, a);
      await timed(drv, b);
    } else {
      await timed(drv, b);
      await timed(raw, a);
    }
  }
  return {
    medianRatio: median(b) / median(a),
    sumRatio: b.reduce((x, y) => x + y, 0) / a.reduce((x, y) => x + y, 0),
    rawMs: median(a),
    drvMs: median(b),
  };
}

const lines: string[] = [];
for (const [label, size, iterations] of [
  ["4 KiB", 4 * 1024, 600],
  ["64 KiB", 64 * 1024, 400],
  ["512 KiB", 512 * 1024, 200],
] as const) {
  const data = new Uint8Array(size).map((_, i) => (i * 31) % 251);
  const tag = label.replace(" ", "");
  let n = 0;
  const rawPut = () =>
    raw.send(new PutObjectCommand({ Bucket: bucket, Key: `raw/put-${tag}-${n++ % ROTATE}`, Body: data }));
  const rawPutSha = () =>
    raw.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `raw/put-${tag}-${n++ % ROTATE}`,
        Body: data,
        ChecksumAlgorithm: "SHA256",
      }),
    );
  const drvPutIfAbsent = () => driver.putIfAbsent(`drv/put-${tag}-${n++ % ROTATE}`, data);
  const drvPut = () => driver.put(`drv/replace-${tag}-${n++ % ROTATE}`, data);
  await compare({
    title: `put ${label}`,
    time,
    baseline: "raw SDK PutObject",
    cases: {
      "raw SDK PutObject": rawPut,
      "driver.putIfAbsent (If-None-Match, SHA-256)": drvPutIfAbsent,
      "driver.put (SHA-256)": drvPut,
    },
  });
  await raw.send(new PutObjectCommand({ Bucket: bucket, Key: `raw/get-${tag}`, Body: data }));
  await driver.put(`drv/get-${tag}`, data);
  const rawGet = async () =>
    (await raw.send(new GetObjectCommand({ Bucket: bucket, Key: `raw/get-${tag}` }))).Body!.transformToByteArray();
  const drvGet = () => driver.get(`drv/get-${tag}`);
  await compare({
    title: `get ${label}`,
    time,
    baseline: "raw SDK GetObject",
    cases: { "raw SDK GetObject": rawGet, "driver.get": drvGet },
  });
  const results = [
    ["putIfAbsent (new key) vs PutObject", await paired(iterations, rawPut, drvPutIfAbsent)],
    [
      "putIfAbsent (new key) vs PutObject with the same SHA-256 checksum",
      await paired(iterations, rawPutSha, drvPutIfAbsent),
    ],
    ["put vs PutObject", await paired(iterations, rawPut, drvPut)],
    ["get vs GetObject", await paired(iterations, rawGet, drvGet)],
  ] as const;
  for (const [what, r] of results) {
    lines.push(
      `| ${label} | ${what} | ${r.rawMs.toFixed(2)} | ${r.drvMs.toFixed(2)} | **${r.medianRatio.toFixed(2)}×** | ${r.sumRatio.toFixed(2)}× |`,
    );
  }
}
console.log("\n### Driver time / raw SDK time, paired (target ≤ 1.1×)\n");
console.log(
  "| size | operation | raw median ms | driver median ms | ratio of medians | ratio of totals |\n|---|---|---:|---:|---:|---:|",
);
console.log(lines.join("\n"));

// Requests on the wire per operation.
const proxy = await startFaultProxy({ target: s3.endpoint, enforceIfNoneMatch: true });
const count = async (fn: () => Promise<unknown>) => {
  proxy.clearLog();
  await fn();
  return proxy.requests.length;
};
const viaProxy = (extra: Record<string, unknown> = {}) =>
  new S3Driver({
    bucket,
    prefix: `count-${Math.random().toString(36).slice(2)}`,
    endpoint: proxy.endpoint,
    forcePathStyle: true,
    region: s3.region,
    ...extra,
  });
const on = viaProxy();
await on.conditionalWrites();
const off = viaProxy({ conditionalWrites: "off" });
const N = 50;
const rows: Array<[string, number]> = [];
rows.push([
  "driver.putIfAbsent, new key (If-None-Match)",
  (await count(async () => {
    for (let i = 0; i < N; i++) await on.putIfAbsent(`k/${i}`, new Uint8Array([i]));
  })) / N,
]);
rows.push([
  "driver.putIfAbsent, existing key (412 + refresh copy)",
  (await count(async () => {
    for (let i = 0; i < N; i++) await on.putIfAbsent(`k/${i}`, new Uint8Array([i]));
  })) / N,
]);
rows.push([
  "driver.putIfAbsent, new key, conditionalWrites off (HEAD + PUT)",
  (await count(async () => {
    for (let i = 0; i < N; i++) await off.putIfAbsent(`o/${i}`, new Uint8Array([i]));
  })) / N,
]);
rows.push(["driver.get / head / put", await count(() => on.get("k/1"))]);
rows.push(["driver.delete (HEAD + DELETE)", await count(() => on.delete("k/2"))]);
rows.push(['conditional-write probe (once per driver, "auto")', await count(() => viaProxy().conditionalWrites())]);

const storeDriver = viaProxy();
await storeDriver.conditionalWrites();
const store = new ArtifactStore({ driver: storeDriver });
await store.put("warm up: layout check");
const texts = Array.from({ length: N }, (_, i) => `artifact number ${i} `.repeat(20));
rows.push([
  "store.put, new content, no session",
  (await count(async () => {
    for (const t of texts) await store.put(t);
  })) / N,
]);
rows.push([
  "store.put, same content again (dedupe, verify read)",
  (await count(async () => {
    for (const t of texts) await store.put(t);
  })) / N,
]);
rows.push([
  "store.put, new content, with session",
  (await count(async () => {
    for (const t of texts) await store.put(`${t}!`, { session: "s" });
  })) / N,
]);
const one = await store.put("one more", { session: "s" });
rows.push(["store.get by id", await count(() => store.get(one.id))]);
rows.push(["store.get by short ref in a session", await count(() => store.get(one.shortRef, { session: "s" }))]);
console.log("\n### Requests per operation (counted on the wire)\n");
console.log("| operation | requests |\n|---|---:|");
for (const [name, value] of rows) console.log(`| ${name} | ${Number.isInteger(value) ? value : value.toFixed(2)} |`);

await Promise.all([driver.close(), on.close(), off.close(), store.close()]);
raw.destroy();
await proxy.stop();
await s3.stop();
