// `pnpm --filter @artifact-refs/store-s3 bench:requests`: requests per store operation, counted on the
// wire by the fault proxy (enforcing If-None-Match like AWS S3) in front of the local S3 server.
import { ArtifactStore } from "@artifact-refs/store";
import { S3Driver } from "@artifact-refs/store-s3";
import { startFaultProxy } from "@artifact-refs/tooling/s3/fault-proxy";
import { startS3ServerProcess } from "@artifact-refs/tooling/s3/server";
import { OPERATIONS, PER_ITEM, operationContext } from "./operations.js";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
const bucket = "bench-requests";
const s3 = await startS3ServerProcess({ buckets: [bucket] });
Object.assign(process.env, s3.env);
const proxy = await startFaultProxy({ target: s3.endpoint, enforceIfNoneMatch: true });
const driver = new S3Driver({
  bucket,
  prefix: `requests-${Date.now()}`,
  endpoint: proxy.endpoint,
  forcePathStyle: true,
  region: s3.region,
  conditionalWrites: "on",
});
const store = new ArtifactStore({ driver });
await store.put("warm up: the layout check");
const count = async (fn: () => Promise<unknown>) => {
  proxy.clearLog();
  await fn();
  return proxy.requests.length;
};
const N = Number(process.env.BENCH_REPEAT ?? 5);
const ctx = operationContext("count");
console.log("| operation | requests | documented |\n|---|---:|---:|");
for (const op of OPERATIONS) {
  let total = 0;
  for (let i = 0; i < N; i++) {
    const state = await op.setup(store, ctx);
    total += await count(() => op.run(store, state));
  }
  console.log(`| ${op.name} | ${+(total / N).toFixed(2)} | ${op.requests} |`);
}
for (const item of PER_ITEM) {
  console.log(`| ${item.name} | ${+(await item.measure(count, store, ctx)).toFixed(2)} | ${item.requests} |`);
}
await store.close();
await proxy.stop();
await s3.stop();
