import { useS3Server } from "@artifact-refs/tooling/testing/s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/index.js";
import { ADMIN, TOKEN_A, call, jsonInit } from "./helpers.js";

/**
 * Two server instances on one bucket of a real S3-compatible server on 127.0.0.1: what one
 * stores, the other serves; a reference dropped on one is gone on the other once the other's
 * access check is older than accessCacheMs.
 */
const s3 = useS3Server();
let a: RunningServer;
let b: RunningServer;

beforeAll(async () => {
  const spec = s3.storeSpec(s3.createBucket(), "refs");
  const options = {
    store: spec,
    tokens: { admin: ADMIN, sessions: { [TOKEN_A]: ["sess-a"] } },
    rateLimit: false as const,
    ui: false,
  };
  a = await startServer(options);
  b = await startServer(options);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe("several instances sharing one S3 bucket", () => {
  it("stash on one instance, fetch, list and drop on the other", async () => {
    expect((await call(`${a.url}/healthz`)).json.store).toBe("s3");
    const text = Array.from({ length: 300 }, (_, i) => `row ${i}${i === 150 ? " NEEDLE" : ""}`).join("\n");
    const stash = await call(`${a.url}/api/artifacts?session=sess-a&label=rows`, {
      method: "POST",
      body: text,
      headers: { "content-type": "text/plain" },
      token: TOKEN_A,
    });
    expect(stash.status).toBe(201);
    const fetched = await call(
      `${b.url}/api/artifacts/${stash.json.short_ref}?session=sess-a&mode=grep&pattern=NEEDLE`,
      { token: TOKEN_A },
    );
    expect(fetched.status).toBe(200);
    expect(fetched.json.text).toBe("151:row 150 NEEDLE");
    const list = await call(`${b.url}/api/sessions/sess-a/artifacts`, { token: TOKEN_A });
    expect(list.json.items.map((i: { label?: string }) => i.label)).toContain("rows");
    const again = await call(`${b.url}/api/artifacts`, jsonInit({ content: text, session: "sess-a" }, TOKEN_A));
    expect(again.json.deduped).toBe(true);
    const byId = `${a.url}/api/artifacts/${stash.json.artifact_id}?session=sess-a`;
    expect((await call(byId, { token: TOKEN_A })).status).toBe(200); // a has now checked this reference
    const drop = await call(`${b.url}/api/sessions/sess-a/artifacts/${stash.json.artifact_id}`, {
      method: "DELETE",
      token: TOKEN_A,
    });
    expect(drop.status).toBe(200);
    // a may reuse its access check for up to accessCacheMs (1 s by default), then sees the drop.
    await expect
      .poll(async () => (await call(byId, { token: TOKEN_A })).status, { timeout: 10_000, interval: 100 })
      .toBe(404);
    const metrics = await call(`${a.url}/metrics`, { token: ADMIN });
    expect(metrics.text).toMatch(/aref_store_artifacts 1\b/);
  });
});
