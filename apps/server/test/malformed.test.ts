import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorReceiptSchema } from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { rng } from "@artifact-refs/tooling/testing/rng";
import {
  BAD_SESSIONS,
  type BadRequest,
  badAnswer,
  malformedGenerators,
  sendRaw,
} from "@artifact-refs/tooling/testing/malformed-http";
import { ADMIN, TOKEN_A, call, startHarness, type Harness } from "./helpers.js";

/**
 * The malformed-input run: over 1,000 generated bad requests (bodies, headers, ids,
 * selectors, oversized, wrong content types) sent over raw HTTP. Every answer must be a
 * 4xx in the error receipt shape, never a 5xx, and the server must stay healthy.
 */
let h: Harness;
let ref: string;
let jsonRef: string;
const BODY_LIMIT = 16 * 1024;

beforeAll(async () => {
  // Raw stash bodies stream up to the store's cap, JSON bodies up to bodyLimit: the same limit for both here.
  h = await startHarness({
    bodyLimit: BODY_LIMIT,
    store: new ArtifactStore({ driver: new MemoryDriver(), maxBytes: BODY_LIMIT }),
  });
  const s = await call(`${h.url}/api/artifacts?session=sess-a`, {
    method: "POST",
    body: "alpha\nbeta\ngamma\n",
    headers: { "content-type": "text/plain" },
    token: TOKEN_A,
  });
  ref = s.json.short_ref;
  const j = await call(`${h.url}/api/artifacts?session=sess-a&mime=application/json`, {
    method: "POST",
    body: '{"a":[1,2,3]}',
    headers: { "content-type": "application/octet-stream" },
    token: TOKEN_A,
  });
  jsonRef = j.json.short_ref;
});
afterAll(async () => {
  await h.close();
});

/** The shared malformed requests plus this test's own: context ids, jsonpath on text, other sessions. */
function generate(seed: number, count: number): BadRequest[] {
  const r = rng(seed);
  const auth = { authorization: `Bearer ${TOKEN_A}` };
  const gens: Array<() => BadRequest> = [
    ...malformedGenerators({
      r,
      token: TOKEN_A,
      admin: ADMIN,
      bodyLimit: BODY_LIMIT,
      ref: () => r.pick([ref, jsonRef]),
    }),
    // jsonpath on non-JSON content
    () => ({
      kind: "jsonpath-on-text",
      method: "GET",
      path: `/api/artifacts/${ref}?session=sess-a&mode=jsonpath&expr=${encodeURIComponent(r.pick(["$.a", "$..*", "$[", "/a/b"]))}`,
      headers: auth,
    }),
    () => ({
      kind: "bad-context-id",
      method: "GET",
      path: `/api/artifacts/context/${encodeURIComponent(r.pick(BAD_SESSIONS.filter((s) => s !== "")))}`,
      headers: { authorization: `Bearer ${ADMIN}` },
    }),
    // forbidden sessions
    () => ({
      kind: "forbidden",
      method: "GET",
      path: r.pick([
        "/api/sessions/sess-b/artifacts",
        "/api/sessions/sess-b/metrics",
        "/api/artifacts/context/sess-b",
        `/api/artifacts/${ref}?session=sess-b`,
        `/api/artifacts/${ref}`,
        "/metrics",
      ]),
      headers: auth,
    }),
  ];
  const out: BadRequest[] = [];
  for (let i = 0; i < count; i++) out.push(gens[i % gens.length]!());
  return out;
}

describe("malformed input", () => {
  it("≥ 1,000 generated bad requests get only 4xx in the error receipt shape; the server stays healthy", async () => {
    const requests = generate(20261122, 1_200);
    expect(requests.length).toBeGreaterThanOrEqual(1_000);
    const failures: string[] = [];
    const byKind = new Map<string, Set<number>>();
    for (let i = 0; i < requests.length; i += 8) {
      const batch = requests.slice(i, i + 8);
      const results = await Promise.all(batch.map((req) => sendRaw(h.url, req)));
      results.forEach((res, j) => {
        const req = batch[j]!;
        (byKind.get(req.kind) ?? byKind.set(req.kind, new Set()).get(req.kind)!).add(res.status);
        const failure = badAnswer(req, res, (body) => ErrorReceiptSchema.safeParse(body).success);
        if (failure) failures.push(failure);
      });
    }
    if (process.env.AREF_DEBUG) console.log([...byKind].map(([k, v]) => `${k}: ${[...v].join(",")}`).join("\n"));
    expect(failures).toEqual([]);
    expect(byKind.get("oversized")).toEqual(new Set([413]));
    expect(byKind.get("bad-auth")).toEqual(new Set([401]));
    expect(byKind.get("forbidden")).toEqual(new Set([403]));
    const health = await call(`${h.url}/healthz`);
    expect(health.status).toBe(200);
    const ok = await call(`${h.url}/api/artifacts/${ref}?session=sess-a`, { token: TOKEN_A });
    expect(ok.json.text).toBe("alpha\nbeta\ngamma\n");
  });
});
