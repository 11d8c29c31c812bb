// The stash route streams raw bodies into the store: a body bigger than the server's bodyLimit
// is stored whole (chunked), a body over the store's per-artifact cap is 413 naming the cap and
// leaves nothing live, and a fetch of a chunked artifact reads only the chunks it needs.
import { request } from "node:http";
import { createHash } from "node:crypto";
import { generatedLog } from "@artifact-refs/store/testing";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/index.js";

const TOKEN = "t".repeat(32);
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(maxBytes?: number): Promise<{ store: ArtifactStore; driver: MemoryDriver; url: string }> {
  const driver = new MemoryDriver();
  const store = new ArtifactStore({ driver, ...(maxBytes === undefined ? {} : { maxBytes }) });
  server = await startServer({ store, tokens: { admin: TOKEN }, rateLimit: false, ui: false, bodyLimit: 64 * 1024 });
  return { store, driver, url: server.url };
}

/** POSTs `body` in pieces without a Content-Length (chunked transfer encoding), as a pipe would. */
function postChunked(url: string, body: Uint8Array): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/artifacts?session=s1&type=log`,
      { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, "content-type": "text/plain" } },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    for (let at = 0; at < body.length; at += 100_000) req.write(body.subarray(at, at + 100_000));
    req.end();
  });
}

describe("POST /api/artifacts streams raw bodies", () => {
  const log = new TextEncoder().encode(generatedLog(60_000)); // ~3.7 MB, over the 64 KiB bodyLimit

  it("stores a body bigger than the bodyLimit whole, chunked, and fetches its tail", async () => {
    const { store, url } = await start();
    const res = await postChunked(url, log);
    expect(res.status).toBe(201);
    expect(res.json.artifact_id).toBe(createHash("sha256").update(log).digest("hex"));
    expect(res.json.bytes).toBe(log.byteLength);
    expect((await store.getRecord(res.json.artifact_id)).chunked).toBeDefined();
    const tail = await fetch(`${url}/api/artifacts/${res.json.short_ref}?session=s1&mode=headtail&tail=2`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const receipt = (await tail.json()) as { text: string; total_lines: number };
    expect(receipt.total_lines).toBe(60_000);
    expect(receipt.text).toMatch(/ step 60000 /);
  });

  it("a body over the store's cap is 413 naming the cap, and nothing is live", async () => {
    const { store, url } = await start(1_000_000);
    const res = await postChunked(url, log);
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe("TOO_LARGE");
    expect(res.json.error.message).toContain("1000000");
    expect(await store.listSessions()).toEqual([]);
    const declared = await fetch(`${url}/api/artifacts?session=s1`, {
      method: "POST",
      body: log,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/octet-stream" },
    });
    expect(declared.status).toBe(413);
    expect(await store.listSessions()).toEqual([]);
  });
});
