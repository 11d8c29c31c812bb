import { describe, expect, it } from "vitest";
import { TOKEN_A, call } from "./helpers.js";
import { useCountedS3Servers } from "./s3-counted-servers.js";

/**
 * S3 requests behind one bounded fetch over HTTP, counted on the wire by the fault proxy between
 * the servers and the local S3 server. Values documented in docs/benchmarks/store-s3.md: cold by
 * short ref in a session 3 (listing, then reference + blob at once), a selection already cached
 * with a reused access check 0, another selection of it 1 (the blob).
 */
const servers = useCountedS3Servers("fetch");
const { counted } = servers;
const writer = () => servers.writer;
const reader = () => servers.reader;

describe("S3 requests per bounded fetch over HTTP", () => {
  it("cold by short ref: 3 requests; cached selection: 0; another selection: the blob alone", async () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i}${i === 99 ? " NEEDLE" : ""}`).join("\n");
    const stash = await call(`${writer().url}/api/artifacts?session=sess-a`, {
      method: "POST",
      body: text,
      headers: { "content-type": "text/plain" },
      token: TOKEN_A,
    });
    expect(stash.status).toBe(201);
    const url = (query: string) => `${reader().url}/api/artifacts/${stash.json.short_ref}?session=sess-a&${query}`;

    const cold = await counted(url("mode=grep&pattern=NEEDLE"));
    expect(cold.response.json.text).toBe("100:line 99 NEEDLE");
    expect(cold.requests.length, cold.requests.join("\n")).toBeLessThanOrEqual(3);

    const warm = await counted(url("mode=grep&pattern=NEEDLE"));
    expect(warm.response.json.text).toBe("100:line 99 NEEDLE");
    expect(warm.requests).toEqual([]);

    const other = await counted(url("mode=range&start=1&end=2"));
    expect(other.response.status).toBe(200);
    expect(other.requests.length, other.requests.join("\n")).toBeLessThanOrEqual(1);
  });

  it("a session without the reference gets 404 and the content is never served", async () => {
    const stash = await call(`${writer().url}/api/artifacts?session=sess-a`, {
      method: "POST",
      body: "only in sess-a\n",
      headers: { "content-type": "text/plain" },
      token: TOKEN_A,
    });
    const drop = await call(`${writer().url}/api/sessions/sess-a/artifacts/${stash.json.artifact_id}`, {
      method: "DELETE",
      token: TOKEN_A,
    });
    expect(drop.status).toBe(200);
    const cold = await counted(`${reader().url}/api/artifacts/${stash.json.artifact_id}?session=sess-a`);
    expect(cold.response.status).toBe(404);
    expect(JSON.stringify(cold.response.json)).not.toContain("only in sess-a");
  });
});
