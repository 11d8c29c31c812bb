import { describe, expect, it } from "vitest";
import { TOKEN_A, call } from "./helpers.js";
import { useCountedS3Servers } from "./s3-counted-servers.js";

/**
 * `GET /api/sessions/:id/artifacts` reads each artifact's record only once per reference it lists
 * (docs/benchmarks/store-s3.md, round 9): listing an unchanged session again is the S3 listing alone; a
 * reference changed by another server since is read, with its record. S3 requests counted on the wire by
 * the fault proxy between the servers and the local S3 server.
 */
const servers = useCountedS3Servers("records");
const { counted } = servers;
const writer = () => servers.writer;
const reader = () => servers.reader;

const stash = async (body: string, label?: string) => {
  const query = label === undefined ? "session=sess-a" : `session=sess-a&label=${label}`;
  const response = await call(`${writer().url}/api/artifacts?${query}`, {
    method: "POST",
    body,
    headers: { "content-type": "text/plain" },
    token: TOKEN_A,
  });
  expect(response.status).toBe(201);
  return response.json as { artifact_id: string };
};

describe("S3 requests of a session listing through the server", () => {
  it("an unchanged session lists with one request; a reference changed elsewhere is read with its record", async () => {
    const bodies = ["first listed stash\n", "second listed stash\n", "third listed stash\n"];
    const ids: string[] = [];
    for (const body of bodies) ids.push((await stash(body)).artifact_id);

    const first = await counted(`${reader().url}/api/sessions/sess-a/artifacts`);
    expect(first.response.status).toBe(200);
    // Never seen on this server: the listing, each reference and each record.
    expect(first.requests, first.requests.join("\n")).toHaveLength(1 + 3 + 3);

    const again = await counted(`${reader().url}/api/sessions/sess-a/artifacts`);
    expect(again.response.status).toBe(200);
    expect(again.requests, again.requests.join("\n")).toHaveLength(1);
    expect(again.requests[0]).toContain("list-type");
    expect(again.response.json).toEqual(first.response.json);

    // Stashed again elsewhere with a label: a new reference (new version, new time), read with its record.
    await stash(bodies[1]!, "relabelled");
    const changed = await counted(`${reader().url}/api/sessions/sess-a/artifacts`);
    expect(changed.response.status).toBe(200);
    expect(changed.requests, changed.requests.join("\n")).toHaveLength(3);
    expect(changed.requests.filter((r) => r.includes(ids[1]!))).toHaveLength(2);
    const items = (
      changed.response.json as { items: Array<{ artifact_id: string; label?: string; size_bytes: number }> }
    ).items;
    expect(items.find((i) => i.artifact_id === ids[1])).toMatchObject({
      label: "relabelled",
      size_bytes: bodies[1]!.length,
    });
  });
});
