// `pnpm --filter @artifact-refs/store-s3 bench:stream`: a large artifact (BENCH_MB, default 64 MiB of
// log-like text) stored with putStream and read back with getStream through the S3 driver (chunked:
// ~64 KiB chunks, each its own object), next to the raw SDK moving the same bytes as one object
// (lib-storage multipart Upload, GetObject streamed), in the same run, on the local S3 server.
import { Readable } from "node:stream";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { ArtifactStore } from "@artifact-refs/store";
import { S3Driver } from "@artifact-refs/store-s3";
import { machine } from "@artifact-refs/tooling/bench/harness";
import { startS3ServerProcess } from "@artifact-refs/tooling/s3/server";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
const mib = Number(process.env.BENCH_MB ?? 64);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const bucket = "bench-stream";
const s3 = await startS3ServerProcess({ buckets: [bucket] });
Object.assign(process.env, s3.env);
const raw = new S3Client(s3.clientConfig());
const driver = new S3Driver({
  bucket,
  prefix: "stream",
  endpoint: s3.endpoint,
  forcePathStyle: true,
  region: s3.region,
});

// Log-like lines, different per round (so every round stores new content).
function* pieces(round: number): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  let written = 0;
  let i = 0;
  while (written < mib * 1024 * 1024) {
    const lines: string[] = [];
    for (let j = 0; j < 1000; j++, i++)
      lines.push(`${round}:${i} INFO worker-${i % 7} handled request ${i * 7919} in ${i % 97} ms`);
    const piece = encoder.encode(`${lines.join("\n")}\n`);
    written += piece.byteLength;
    yield piece;
  }
}
const drain = async (stream: AsyncIterable<Uint8Array>) => {
  let n = 0;
  for await (const chunk of stream) n += chunk.byteLength;
  return n;
};
const best = { rawPut: Infinity, rawGet: Infinity, storePut: Infinity, storeGet: Infinity };
let bytes = 0;
for (let round = 0; round < rounds; round++) {
  const store = new ArtifactStore({ driver });
  let t = performance.now();
  await new Upload({
    client: raw,
    params: { Bucket: bucket, Key: `raw/${round}`, Body: Readable.from(pieces(round)) },
  }).done();
  best.rawPut = Math.min(best.rawPut, performance.now() - t);
  t = performance.now();
  bytes = await drain((await raw.send(new GetObjectCommand({ Bucket: bucket, Key: `raw/${round}` }))).Body as Readable);
  best.rawGet = Math.min(best.rawGet, performance.now() - t);
  t = performance.now();
  const put = await store.putStream(Readable.from(pieces(round + 1000)), { session: "stream" });
  best.storePut = Math.min(best.storePut, performance.now() - t);
  t = performance.now();
  const got = await drain(await store.getStream(put.id, { session: "stream" }));
  best.storeGet = Math.min(best.storeGet, performance.now() - t);
  if (got !== put.record.size_bytes) throw new Error(`read ${got} bytes of ${put.record.size_bytes}`);
}
const rate = (ms: number) => `${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(1)} MiB/s`;
console.log(`machine: ${machine()}`);
console.log(`${(bytes / 1024 / 1024).toFixed(1)} MiB, best of ${rounds}\n`);
console.log("| operation | raw SDK (one object) | store (chunked) | store / raw time |\n|---|---:|---:|---:|");
console.log(
  `| write (Upload / putStream) | ${best.rawPut.toFixed(0)} ms, ${rate(best.rawPut)} | ${best.storePut.toFixed(0)} ms, ${rate(best.storePut)} | **${(best.storePut / best.rawPut).toFixed(2)}×** |`,
);
console.log(
  `| read (GetObject / getStream) | ${best.rawGet.toFixed(0)} ms, ${rate(best.rawGet)} | ${best.storeGet.toFixed(0)} ms, ${rate(best.storeGet)} | **${(best.storeGet / best.rawGet).toFixed(2)}×** |`,
);
await driver.close();
raw.destroy();
await s3.stop();
