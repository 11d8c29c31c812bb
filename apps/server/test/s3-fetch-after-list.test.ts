import { describe, expect, it } from "vitest";
import { TOKEN_A, call } from "./helpers.js";
import { useCountedS3Servers } from "./s3-counted-servers.js";

/**
 * A session's listing on a server is the access check of its bounded fetches within accessCacheMs
 * (docs/benchmarks/store-s3.md, round 9): stashed on one server, listed on the other, then fetched there
 * by short ref with the blob alone; listed again, unchanged, without reading a reference. S3 requests counted on
 * the wire by the fault proxy between the servers and the local S3 server.
 */
const servers = useCountedS3Servers("listed");
const { counted } = servers;
const writer = () => servers.writer;
const reader = () => servers.reader;

describe("S3 requests of a fetch after the session was listed", () => {
  it("listed on this server: a fetch by short ref reads the blob alone; listing again unchanged reads no reference", async () => {
    const stashed = [];
    for (const body of ["first stash listed then fetched\n", "second stash listed then fetched\n"]) {
      const stash = await call(`${writer().url}/api/artifacts?session=sess-a`, {
        method: "POST",
        body,
        headers: { "content-type": "text/plain" },
        token: TOKEN_A,
      });
      expect(stash.status).toBe(201);
      stashed.push(stash.json);
    }
    const listed = await counted(`${reader().url}/api/sessions/sess-a/artifacts`);
    expect(listed.response.status).toBe(200);
    // The listing, each reference (never read here before) and, for the route's sizes and summaries, each record.
    expect(listed.requests.filter((r) => r.includes("/refs/"))).toHaveLength(2);

    const fetched = await counted(`${reader().url}/api/artifacts/${stashed[1].short_ref}?session=sess-a`);
    expect(fetched.response.status).toBe(200);
    expect(JSON.stringify(fetched.response.json)).toContain("second stash listed then fetched");
    expect(fetched.requests.length, fetched.requests.join("\n")).toBe(1);
    expect(fetched.requests[0]).toContain("/blobs/");

    // Listed again, unchanged: no reference and no record is read (the listing alone).
    const again = await counted(`${reader().url}/api/sessions/sess-a/artifacts`);
    expect(again.response.status).toBe(200);
    expect(again.requests, again.requests.join("\n")).toHaveLength(1);
    expect(again.requests[0]).toContain("list-type");
    expect(again.response.json).toEqual(listed.response.json);
  });
});
