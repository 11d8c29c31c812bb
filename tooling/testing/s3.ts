import { afterAll, beforeAll } from "vitest";
import { startS3Server, type S3TestServer } from "../s3/server.mjs";

/**
 * The local S3-compatible server for one test file: started in beforeAll with the test
 * credentials in process.env (the AWS SDK's default chain reads them), stopped in afterAll
 * with the environment put back as it was. The value returned stands for the server once
 * beforeAll has run (use it inside tests and hooks).
 */
export function useS3Server(): S3TestServer {
  let server: S3TestServer | undefined;
  const saved = new Map<string, string | undefined>();
  beforeAll(async () => {
    server = await startS3Server();
    for (const [k, v] of Object.entries(server.env)) {
      saved.set(k, process.env[k]);
      process.env[k] = v;
    }
  });
  afterAll(async () => {
    await server?.stop();
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  return new Proxy({} as S3TestServer, {
    get(_target, key) {
      if (server === undefined) throw new Error("the S3 test server starts in beforeAll: use it inside a test or hook");
      const value: unknown = Reflect.get(server, key);
      return typeof value === "function" ? value.bind(server) : value;
    },
  });
}
