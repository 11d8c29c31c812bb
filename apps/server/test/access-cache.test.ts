import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { createServer, startServer, type RunningServer } from "../src/index.js";
import { ADMIN, TOKEN_A, call } from "./helpers.js";

// Bounded fetch may reuse a session's access check (accessCacheMs). These tests pin down what
// that may and may not change: drops through this server and expiry are seen at once; a drop by
// another instance sharing the backend is seen within the bound, or at once with accessCacheMs 0.
const tokens = { admin: ADMIN, sessions: { [TOKEN_A]: ["sess-a"] } };
const driver = new MemoryDriver(); // one backend, three server instances with their own stores
const servers: RunningServer[] = [];
let cached: RunningServer; // accessCacheMs 60 s: a stale answer within the test is certain
let strict: RunningServer; // accessCacheMs 0
let other: RunningServer;

beforeAll(async () => {
  const start = async (accessCacheMs?: number) => {
    const server = await startServer({
      store: new ArtifactStore({ driver }),
      tokens,
      rateLimit: false,
      ui: false,
      ...(accessCacheMs === undefined ? {} : { accessCacheMs }),
    });
    servers.push(server);
    return server;
  };
  cached = await start(60_000);
  strict = await start(0);
  other = await start();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function stash(server: RunningServer, text: string): Promise<string> {
  const res = await call(`${server.url}/api/artifacts?session=sess-a`, {
    method: "POST",
    body: text,
    headers: { "content-type": "text/plain" },
    token: TOKEN_A,
  });
  expect(res.status).toBe(201);
  return res.json.short_ref;
}
const fetchStatus = async (server: RunningServer, ref: string) =>
  (await call(`${server.url}/api/artifacts/${ref}?session=sess-a&mode=grep&pattern=x`, { token: TOKEN_A })).status;
const drop = async (server: RunningServer, ref: string) =>
  (await call(`${server.url}/api/sessions/sess-a/artifacts/${ref}`, { method: "DELETE", token: TOKEN_A })).status;

describe("access checks of bounded fetch", () => {
  it("a drop through the same server is seen at once, whatever the cache's age", async () => {
    const ref = await stash(cached, "x marks the spot, dropped here\n");
    expect(await fetchStatus(cached, ref)).toBe(200);
    expect(await drop(cached, ref)).toBe(200);
    expect(await fetchStatus(cached, ref)).toBe(404);
  });

  it("a drop by another instance: within accessCacheMs the old answer may stand; with 0 it is seen at once", async () => {
    const ref = await stash(other, "x marks the spot, dropped elsewhere\n");
    expect(await fetchStatus(cached, ref)).toBe(200);
    expect(await fetchStatus(strict, ref)).toBe(200);
    expect(await drop(other, ref)).toBe(200);
    expect(await fetchStatus(strict, ref)).toBe(404);
    expect(await fetchStatus(cached, ref)).toBe(200); // the documented bound: at most accessCacheMs stale
  });

  it("a reference added elsewhere is found at once (misses are never kept)", async () => {
    const text = "x added by another instance\n";
    const stored = await new ArtifactStore({ driver }).put(text); // content without a reference yet
    const ref = `art:${stored.id.slice(0, 12)}`;
    expect(await fetchStatus(cached, ref)).toBe(404);
    await stash(other, text);
    expect(await fetchStatus(cached, ref)).toBe(200);
  });

  it("refuses a bad accessCacheMs", async () => {
    for (const accessCacheMs of [-1, Number.NaN]) {
      await expect(createServer({ store: "memory:", accessCacheMs, ui: false })).rejects.toMatchObject({
        code: "CONFIG_INVALID",
      });
    }
  });

  it("requests are counted by route pattern and status; unmatched ones as 'unmatched'", async () => {
    const ref = await stash(other, "x counted\n");
    await fetchStatus(other, ref);
    expect((await call(`${other.url}/no/such/route`, { token: ADMIN })).status).toBe(404);
    const text = (await call(`${other.url}/metrics`, { token: ADMIN })).text;
    expect(text).toMatch(
      /^aref_http_requests_total\{method="GET",route="\/api\/artifacts\/:ref",status="200"\} [1-9]\d*$/m,
    );
    expect(text).toMatch(/^aref_http_requests_total\{method="GET",route="unmatched",status="404"\} 1$/m);
    expect(text).toMatch(
      /^aref_http_request_duration_seconds_count\{method="GET",route="\/api\/artifacts\/:ref"\} [1-9]\d*$/m,
    );
  });
});
