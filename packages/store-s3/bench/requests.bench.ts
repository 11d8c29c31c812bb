// `pnpm --filter @artifact-refs/store-s3 bench:requests`: requests per store operation, counted on the
// wire by the fault proxy (enforcing If-None-Match like AWS S3) in front of the local S3 server.
import { ArtifactStore } from "@artifact-refs/store";
import { S3Driver } from "@artifact-refs/store-s3";
import { startFaultProxy } from "@artifact-refs/tooling/s3/fault-proxy";
import { startS3ServerProcess } from "@artifact-refs/tooling/s3/server";
import { GRACE_FLOOR_MS, OPERATIONS, PER_ITEM, operationContext } from "./operations.js";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
const bucket = "bench-requests";
const s3 = await startS3ServerProcess({ buckets: [bucket] });
Object.assign(process.env, s3.env);
const proxy = await startFaultProxy({ target: s3.endpoint, enforceIfNoneMatch: true });
const driver = (prefix: string) =>
  new S3Driver({
    bucket,
    prefix: `${prefix}-${Date.now()}`,
    endpoint: proxy.endpoint,
    forcePathStyle: true,
    region: s3.region,
    conditionalWrites: "on",
  });
// The same operations in a store with a gc grace floor (layout.json) and in one without.
const store = new ArtifactStore({ driver: driver("requests-floor") }); // S3 default: a 60 s floor
const plain = new ArtifactStore({ driver: driver("requests"), gcGraceFloorMs: 0 });
await store.put("warm up: the layout check");
await plain.put("warm up: the layout check");
const count = async (fn: () => Promise<unknown>) => {
  proxy.clearLog();
  await fn();
  return proxy.requests.length;
};
const N = Number(process.env.BENCH_REPEAT ?? 5);
const ctx = operationContext("count");
const average = async (on: ArtifactStore, op: (typeof OPERATIONS)[number]) => {
  let total = 0;
  for (let i = 0; i < N; i++) {
    const state = await op.setup(on, ctx);
    total += await count(() => op.run(on, state));
  }
  return +(total / N).toFixed(2);
};
console.log(
  `| operation | requests, floor ${GRACE_FLOOR_MS} ms | documented | requests, no floor | documented |\n|---|---:|---:|---:|---:|`,
);
for (const op of OPERATIONS) {
  console.log(
    `| ${op.name} | ${await average(store, op)} | ${op.requests} | ${await average(plain, op)} | ${op.withoutFloor ?? op.requests} |`,
  );
}
// gc and verify per item: in the store without a floor (the measure runs gc with grace 0).
for (const item of PER_ITEM) {
  const perItem = +(await item.measure(count, plain, ctx)).toFixed(2);
  console.log(`| ${item.name} | – | – | ${perItem} | ${item.requests} |`);
}
await store.close();
await plain.close();
await proxy.stop();
await s3.stop();
