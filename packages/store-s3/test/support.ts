import { startFaultProxy, type FaultProxy } from "@artifact-refs/tooling/s3/fault-proxy";
import { startS3Server, type S3TestServer } from "@artifact-refs/tooling/s3/server";
import { afterAll, beforeAll } from "vitest";
import { S3Driver, type S3DriverOptions } from "@artifact-refs/store-s3";

export interface S3Fixture {
  s3: S3TestServer;
  /** Fault proxy in front of the server, enforcing If-None-Match like AWS S3. */
  proxy: FaultProxy;
  /** A driver on the server (directly, or through the proxy with `via: "proxy"`). */
  driver(options?: Partial<S3DriverOptions> & { via?: "direct" | "proxy" }): S3Driver;
}

/** Starts the local S3 server and an enforcing fault proxy for the file's tests. */
export function useS3(): S3Fixture {
  const fixture = {} as S3Fixture;
  beforeAll(async () => {
    fixture.s3 = await startS3Server();
    fixture.proxy = await startFaultProxy({ target: fixture.s3.endpoint, enforceIfNoneMatch: true });
    fixture.driver = ({ via = "direct", ...options } = {}) =>
      new S3Driver({
        bucket: options.bucket ?? fixture.s3.createBucket(),
        endpoint: via === "proxy" ? fixture.proxy.endpoint : fixture.s3.endpoint,
        forcePathStyle: true,
        region: "us-east-1",
        retryBaseDelayMs: 5,
        throttleBaseDelayMs: 10,
        ...options,
      });
  });
  afterAll(async () => {
    await fixture.proxy?.stop();
    await fixture.s3?.stop();
  });
  return fixture;
}
