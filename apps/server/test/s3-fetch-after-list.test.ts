import { startFaultProxy, type FaultProxy } from "@artifact-refs/tooling/s3/fault-proxy";
import { useS3Server } from "@artifact-refs/tooling/testing/s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/index.js";
import { TOKEN_A, call } from "./helpers.js";

/**
 * A session's listing on a server is the access check of its bounded fetches within accessCacheMs
 * (docs/benchmarks/store-s3.md, round 9): stashed on one server, listed on the other, then fetched there
 * by short ref with the blob alone; listed again, unchanged, without reading a reference. S3 requests counted on
 * the wire by the fault proxy between the servers and the local S3 server.
 */
const s3 = useS3Server();
let proxy: FaultProxy;
let writer: RunningServer;
let reader: RunningServer;

beforeAll(async () => {
  proxy = await startFaultProxy({ target: s3.endpoint, enforceIfNoneMatch: true });
  const options = {
    store: s3.storeSpec(s3.createBucket(), "listed", proxy.endpoint),
    tokens: { sessions: { [TOKEN_A]: ["sess-a"] } },
    rateLimit: false as const,
    ui: false,
    accessCacheMs: 60_000,
  };
  writer = await startServer(options);
  reader = await startServer(options);
});
afterAll(async () => {
  await writer?.close();
  await reader?.close();
  await proxy?.stop();
});

const counted = async (url: string) => {
  proxy.clearLog();
  const response = await call(url, { token: TOKEN_A });
  return { response, requests: proxy.requests.map((r) => `${r.method} ${r.key}${r.query ? `?${r.query}` : ""}`) };
};

describe("S3 requests of a fetch after the session was listed", () => {
  it("listed on this server: a fetch by short ref reads the blob alone; listing again unchanged reads no reference", async () => {
    const stashed = [];
    for (const body of ["first stash listed then fetched\n", "second stash listed then fetched\n"]) {
      const stash = await call(`${writer.url}/api/artifacts?session=sess-a`, {
        method: "POST",
        body,
        headers: { "content-type": "text/plain" },
        token: TOKEN_A,
      });
      expect(stash.status).toBe(201);
      stashed.push(stash.json);
    }
    const listed = await counted(`${reader.url}/api/sessions/sess-a/artifacts`);
    expect(listed.response.status).toBe(200);
    // The listing, each reference (never read here before) and, for the route's sizes and summaries, each record.
    expect(listed.requests.filter((r) => r.includes("/refs/"))).toHaveLength(2);

    const fetched = await counted(`${reader.url}/api/artifacts/${stashed[1].short_ref}?session=sess-a`);
    expect(fetched.response.status).toBe(200);
    expect(JSON.stringify(fetched.response.json)).toContain("second stash listed then fetched");
    expect(fetched.requests.length, fetched.requests.join("\n")).toBe(1);
    expect(fetched.requests[0]).toContain("/blobs/");

    // Listed again, unchanged: no reference and no record is read (the listing alone).
    const again = await counted(`${reader.url}/api/sessions/sess-a/artifacts`);
    expect(again.response.status).toBe(200);
    expect(again.requests, again.requests.join("\n")).toHaveLength(1);
    expect(again.requests[0]).toContain("list-type");
    expect(again.response.json).toEqual(listed.response.json);
  });
});
