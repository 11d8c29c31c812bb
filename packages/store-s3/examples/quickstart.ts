// Runs as written: node --conditions=@artifact-refs/source --import tsx packages/store-s3/examples/quickstart.ts
// It starts a local S3-compatible server so it needs no cloud account; against AWS S3,
// MinIO or R2 you would drop the first three lines and pass your bucket (see the README).
import { ArtifactStore } from "@artifact-refs/store";
import { S3Driver } from "@artifact-refs/store-s3";
import { startS3Server } from "@artifact-refs/tooling/s3/server";

const s3 = await startS3Server(); // fauxqs on 127.0.0.1
Object.assign(process.env, s3.env); // test credentials for the SDK's default chain
const bucket = s3.createBucket("artifacts");

const driver = new S3Driver({ bucket, prefix: "team/agents", endpoint: s3.endpoint, forcePathStyle: true });
const store = new ArtifactStore({ driver });

const log = Array.from({ length: 2_000 }, (_, i) => `step ${i}: ok`).join("\n");
const put = await store.put(log, { session: "demo", type: "log", label: "build.log", ttlMs: 3_600_000 });
console.log(`stored ${put.record.size_bytes} bytes as ${put.shortRef}`);
console.log(`content at ${put.record.content_uri}`);
const again = await store.put(log, { session: "other" });
console.log(`second put deduplicated: ${!again.created}`);
console.log(`read back intact: ${(await store.getText(put.shortRef, { session: "demo" })) === log}`);
console.log(`create-once writes: ${await driver.conditionalWrites()}`); // "off": the local server ignores If-None-Match

await store.close();
await s3.stop();
