import { startFaultProxy, type FaultProxy } from "@artifact-refs/tooling/s3/fault-proxy";
import { useS3Server } from "@artifact-refs/tooling/testing/s3";
import { afterAll, beforeAll } from "vitest";
import { startServer, type RunningServer } from "../src/index.js";
import { type Res, TOKEN_A, call } from "./helpers.js";

/** Two servers on one S3 store (a bucket of its own under `prefix`), the fault proxy between them and S3. */
export interface CountedServers {
  writer: RunningServer;
  reader: RunningServer;
  proxy: FaultProxy;
  /** A GET as TOKEN_A with the S3 requests it caused, counted on the wire ("METHOD key?query"). */
  counted(url: string): Promise<{ response: Res; requests: string[] }>;
}

/**
 * Starts the pair before the file's tests and stops it after: token A may use session `sess-a`, no rate limit,
 * no UI, access checks kept for a minute. The fields are set once `beforeAll` has run.
 */
export function useCountedS3Servers(prefix: string): CountedServers {
  const s3 = useS3Server();
  const servers = {
    async counted(url: string) {
      servers.proxy.clearLog();
      const response = await call(url, { token: TOKEN_A });
      const requests = servers.proxy.requests.map((r) => `${r.method} ${r.key}${r.query ? `?${r.query}` : ""}`);
      return { response, requests };
    },
  } as CountedServers;
  beforeAll(async () => {
    servers.proxy = await startFaultProxy({ target: s3.endpoint, enforceIfNoneMatch: true });
    const options = {
      store: s3.storeSpec(s3.createBucket(), prefix, servers.proxy.endpoint),
      tokens: { sessions: { [TOKEN_A]: ["sess-a"] } },
      rateLimit: false as const,
      ui: false,
      accessCacheMs: 60_000,
    };
    servers.writer = await startServer(options);
    servers.reader = await startServer(options);
  });
  afterAll(async () => {
    await servers.writer?.close();
    await servers.reader?.close();
    await servers.proxy?.stop();
  });
  return servers;
}
