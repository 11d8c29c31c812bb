// A local S3-compatible server for tests and benchmarks: fauxqs, in-process, on
// 127.0.0.1 and a free port. fauxqs handles streamed (aws-chunked) puts, ListObjectsV2
// pagination, copy and multipart with the AWS SDK's default settings on Node 20; it does
// NOT enforce `If-None-Match` (put it behind fault-proxy.mjs with enforceIfNoneMatch for that).
//
//   import { startS3Server } from "@artifact-refs/tooling/s3/server";
//   const s3 = await startS3Server();
//   const bucket = s3.createBucket();          // a fresh, uniquely named bucket
//   s3.storeSpec(bucket, "prefix")             // "s3://…?endpoint=…&region=us-east-1&forcePathStyle=true"
//   await s3.stop();
//
// Run it by hand: `node tooling/s3/server.mjs [--port 4566] [--bucket name ...]`.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startFauxqs } from "fauxqs";

export const TEST_REGION = "us-east-1";
export const TEST_CREDENTIALS = { accessKeyId: "aref-test-key", secretAccessKey: "aref-test-secret" };

/** Environment for child processes (and the SDK's default credential chain) to reach the server. */
export const TEST_ENV = Object.freeze({
  AWS_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
  AWS_REGION: TEST_REGION,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
});

let bucketCounter = 0;

/** Starts the server; `buckets` are created up front. */
export async function startS3Server({ port = 0, buckets = [] } = {}) {
  const server = await startFauxqs({ port, host: "127.0.0.1", logger: false, defaultRegion: TEST_REGION });
  const endpoint = `http://127.0.0.1:${server.port}`;
  for (const name of buckets) server.createBucket(name);
  let stopped = false;
  return {
    endpoint,
    port: server.port,
    region: TEST_REGION,
    credentials: TEST_CREDENTIALS,
    env: TEST_ENV,
    /** Creates a bucket (idempotent) and returns its name; without a name, a fresh unique one. */
    createBucket(name = `aref-test-${process.pid}-${Date.now().toString(36)}-${++bucketCounter}`) {
      server.createBucket(name);
      return name;
    },
    /** Removes every object of a bucket, keeping the bucket. */
    emptyBucket(name) {
      server.emptyBucket(name);
    },
    /** Client options for `new S3Client(...)` pointing at this server. */
    clientConfig(overrides = {}) {
      return {
        endpoint,
        region: TEST_REGION,
        forcePathStyle: true,
        credentials: { ...TEST_CREDENTIALS },
        ...overrides,
      };
    },
    /** A store spec (`--store`, AREF_STORE) for `bucket`/`prefix` on this server (or on `via`, e.g. a fault proxy). */
    storeSpec(bucket, prefix = "", via = endpoint) {
      return `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(via)}&region=${TEST_REGION}&forcePathStyle=true`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}

/**
 * The same server in a child process (for benchmarks, or tests that must not share the
 * event loop with it). Buckets are created at start; there is no createBucket afterwards.
 */
export async function startS3ServerProcess({ buckets = [] } = {}) {
  const args = [fileURLToPath(import.meta.url), "--port", "0", ...buckets.flatMap((b) => ["--bucket", b])];
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...TEST_ENV },
  });
  const endpoint = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += String(chunk);
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", (code) => reject(new Error(`S3 server process exited (${code}) before it started`)));
  });
  return {
    endpoint,
    region: TEST_REGION,
    credentials: TEST_CREDENTIALS,
    env: TEST_ENV,
    pid: child.pid,
    clientConfig(overrides = {}) {
      return {
        endpoint,
        region: TEST_REGION,
        forcePathStyle: true,
        credentials: { ...TEST_CREDENTIALS },
        ...overrides,
      };
    },
    storeSpec(bucket, prefix = "", via = endpoint) {
      return `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(via)}&region=${TEST_REGION}&forcePathStyle=true`;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const port = args.includes("--port") ? Number(args[args.indexOf("--port") + 1]) : 0;
  const buckets = args.flatMap((a, i) => (a === "--bucket" ? [args[i + 1]] : []));
  const s3 = await startS3Server({ port, buckets });
  console.log(`S3-compatible server (fauxqs) on ${s3.endpoint}; buckets: ${buckets.join(", ") || "none"}`);
  console.log(
    `credentials: AWS_ACCESS_KEY_ID=${TEST_CREDENTIALS.accessKeyId} AWS_SECRET_ACCESS_KEY=${TEST_CREDENTIALS.secretAccessKey} AWS_REGION=${TEST_REGION}`,
  );
  const stop = async () => {
    await s3.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
