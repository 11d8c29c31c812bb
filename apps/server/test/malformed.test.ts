import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorReceiptSchema } from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { rng } from "@artifact-refs/tooling/testing/rng";
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

interface BadRequest {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

const BAD_SESSIONS = [
  "",
  "..",
  ".",
  "a b",
  "a/b",
  "%2e%2e",
  "x".repeat(200),
  "sess%00a",
  "séssion",
  "a\\b",
  "%ZZ",
  "<script>",
  "a%2Fb",
  "sess-a;drop",
  "*",
];
const BAD_REFS = [
  "art:",
  "art:123",
  "ART:0123456789ab",
  "aref:v1:sha256:xyz",
  `aref:v1:sha256:${"a".repeat(63)}`,
  "a".repeat(65),
  "zzzzzzzzzzzzzz",
  "%ZZ",
  "art:0123456789AB",
  "..%2F..%2Fetc",
  "x".repeat(300),
  "art:%00%00",
  "sha256:abc",
  `aref:v2:sha256:${"0".repeat(64)}`,
  " art:0123456789ab",
];
const JSON_ROUTES = ["/api/artifacts/execute", "/api/chat"];

function generate(seed: number, count: number): BadRequest[] {
  const r = rng(seed);
  const auth = { authorization: `Bearer ${TOKEN_A}` };
  const out: BadRequest[] = [];
  const gens: Array<() => BadRequest> = [
    // JSON bodies that are not JSON
    () => ({
      kind: "invalid-json",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: { ...auth, "content-type": "application/json" },
      body:
        r.pick(["{", '{"a":', "[1,2", "nul", "{'a':1}", "\u0000", '{"session_id":"sess-a",}', "tru", "1e999999x"]) +
        r.bytes(r.int(8)).toString("latin1"),
    }),
    // JSON of the wrong shape
    () => ({
      kind: "wrong-shape",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(
        r.pick<unknown>([
          null,
          42,
          "str",
          [],
          [1, 2],
          {},
          { session_id: 5 },
          { session_id: "sess-a" },
          { session_id: "sess-a", message: "" },
          { session_id: "sess-a", tool_name: "" },
          { session_id: "sess-a", tool_name: "read_file", tool_args: "x" },
          { session_id: "sess-a", batch: [] },
          { session_id: "sess-a", batch: Array(51).fill({ tool_name: "grep", tool_args: { pattern: "a" } }) },
          { session_id: "sess-a", tool_name: "read_file", tool_args: { path: "" } },
          { session_id: "sess-a", tool_name: "grep", tool_args: { pattern: 1 } },
          { session_id: "sess-a", message: "hi", extra: true },
          { session_id: "sess-a", message: "x".repeat(20_001) },
          { session_id: "sess-a", tool_name: "nope.tool", tool_args: {} },
          { session_id: "sess-a", tool_name: "list_files", tool_args: { max_entries: -1 } },
          { session_id: "sess-a", history: [{ role: "system", content: "x" }], message: "m" },
          { session_id: "sess-a", tool_name: "read_file", tool_args: { path: "a", extra: 1 } },
        ]),
      ),
    }),
    // deep nesting
    () => ({
      kind: "deep-json",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: { ...auth, "content-type": "application/json" },
      body: "[".repeat(2_000 + r.int(3_000)) + "]".repeat(10),
    }),
    // wrong content types on JSON routes
    () => ({
      kind: "wrong-content-type",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: {
        ...auth,
        "content-type": r.pick([
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/xml",
          "image/png",
          "application/jsonx",
        ]),
      },
      body: '{"session_id":"sess-a","message":"hi"}',
    }),
    // oversized bodies
    () => ({
      kind: "oversized",
      method: "POST",
      path: r.pick(["/api/artifacts?session=sess-a", ...JSON_ROUTES]),
      headers: { ...auth, "content-type": r.pick(["text/plain", "application/json", "application/octet-stream"]) },
      body: "x".repeat(BODY_LIMIT + 1 + r.int(BODY_LIMIT)),
    }),
    // bad stash requests
    () => ({
      kind: "bad-stash",
      method: "POST",
      path: r.pick([
        "/api/artifacts?session=sess-a&type=nope",
        "/api/artifacts?session=sess-a&ttl_ms=0",
        "/api/artifacts?session=sess-a&ttl_ms=abc",
        "/api/artifacts?session=sess-a&label=",
        "/api/artifacts?session=sess-a&unknown=1",
        "/api/artifacts?session=",
        `/api/artifacts?session=${encodeURIComponent(r.pick(BAD_SESSIONS))}`,
        "/api/artifacts?session=sess-a&mime=a%20b",
        "/api/artifacts?session=sess-b",
        "/api/artifacts",
      ]),
      headers: { ...auth, "content-type": "application/octet-stream" },
      body: r.bytes(1 + r.int(64)),
    }),
    () => ({
      kind: "bad-envelope",
      method: "POST",
      path: "/api/artifacts",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(
        r.pick<unknown>([
          {},
          { content: 1, session: "sess-a" },
          { content: "x", session: "sess-a", encoding: "hex" },
          { content: "%%%", session: "sess-a", encoding: "base64" },
          { content: "", session: "sess-a" },
          { content: "x", session: "sess-a", ttl_ms: -5 },
          { content: "x" },
          [1],
        ]),
      ),
    }),
    // bad refs
    () => ({
      kind: "bad-ref",
      method: r.pick(["GET", "HEAD"]),
      path: `/api/artifacts/${encodeURIComponent(r.pick(BAD_REFS)).replace(/%25/g, r.pick(["%", "%25"]))}?session=sess-a`,
      headers: auth,
    }),
    // bad selectors
    () => ({
      kind: "bad-selector",
      method: "GET",
      path: `/api/artifacts/${r.pick([ref, jsonRef])}?session=sess-a&${r.pick([
        "mode=grep",
        "mode=grep&pattern=",
        "mode=grep&pattern=(",
        "mode=grep&pattern=a&context=101",
        "mode=grep&pattern=a&context=-1",
        "mode=grep&pattern=a&ignoreCase=maybe",
        "mode=range",
        "mode=range&start=0",
        "mode=range&start=5&end=1",
        "mode=range&start=abc",
        "mode=range&start=1e3x",
        "mode=jsonpath",
        "mode=jsonpath&expr=",
        "mode=headtail&head=-1",
        "mode=headtail&head=1.5",
        "maxChars=0",
        "maxChars=100001",
        "maxChars=NaN",
        "mode=nope",
        "mode=headtail&pattern=a",
        "mode=grep&pattern=a&start=1",
        "mode=range&start=1000",
        "mode=range&start=1&start=2",
        "mode=grep&pattern=a&maxMatches=0",
        "bogus=1",
        `mode=grep&pattern=${"a".repeat(1_001)}`,
      ])}`,
      headers: auth,
    }),
    // jsonpath on non-JSON content
    () => ({
      kind: "jsonpath-on-text",
      method: "GET",
      path: `/api/artifacts/${ref}?session=sess-a&mode=jsonpath&expr=${encodeURIComponent(r.pick(["$.a", "$..*", "$[", "/a/b"]))}`,
      headers: auth,
    }),
    // bad session ids in paths
    () => ({
      kind: "bad-session-id",
      method: "GET",
      path: `/api/sessions/${encodeURIComponent(r.pick(BAD_SESSIONS)).replace(/%25/g, "%")}/${r.pick(["artifacts", "metrics", "hot-state", "executions"])}`,
      headers: { authorization: `Bearer ${ADMIN}` },
    }),
    () => ({
      kind: "bad-context-id",
      method: "GET",
      path: `/api/artifacts/context/${encodeURIComponent(r.pick(BAD_SESSIONS.filter((s) => s !== "")))}`,
      headers: { authorization: `Bearer ${ADMIN}` },
    }),
    () => ({
      kind: "bad-delete",
      method: "DELETE",
      path: `/api/sessions/${r.pick(["sess-a", encodeURIComponent(r.pick(BAD_SESSIONS.filter((s) => s !== "")))])}/artifacts/${encodeURIComponent(r.pick(BAD_REFS.filter((s) => s !== "")))}`,
      headers: auth,
    }),
    // bad auth headers
    () => ({
      kind: "bad-auth",
      method: "GET",
      path: r.pick([
        "/api/sessions",
        "/api/sessions/sess-a/artifacts",
        `/api/artifacts/${ref}?session=sess-a`,
        "/metrics",
      ]),
      headers: {
        authorization: r.pick([
          "",
          "Bearer",
          "Bearer ",
          `bearer ${TOKEN_A}`,
          `Basic ${TOKEN_A}`,
          `Bearer ${TOKEN_A}x`,
          `Bearer  ${TOKEN_A}`,
          `Bearer ${"x".repeat(600)}`,
          `Bearer ${TOKEN_A} extra`,
          "Token abc",
        ]),
      },
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
    // unknown routes and methods
    () => ({
      kind: "unknown-route",
      method: r.pick(["PUT", "PATCH", "DELETE", "POST", "OPTIONS"]),
      path: r.pick([
        `/api/artifacts/${ref}`,
        "/api/sessions",
        "/api/nope",
        "/healthz/x",
        "/api/sessions/sess-a",
        "/api/artifacts/execute/x",
      ]),
      headers: auth,
    }),
    // bad query strings on list routes
    () => ({
      kind: "bad-query",
      method: "GET",
      path: r.pick([
        "/api/sessions/sess-a/artifacts?include_expired=perhaps",
        "/api/sessions/sess-a/artifacts?x=1",
        `/api/artifacts/${ref}?session=sess-a&session=sess-b`,
        `/api/artifacts/${ref}?session=sess-a&mode=grep&pattern=a&pattern=b`,
      ]),
      headers: auth,
    }),
  ];
  for (let i = 0; i < count; i++) out.push(gens[i % gens.length]!());
  return out;
}

function send(req: BadRequest): Promise<{ status: number; body: string }> {
  const url = new URL(h.url);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: {
          ...req.headers,
          ...(req.body === undefined ? {} : { "content-length": String(Buffer.byteLength(req.body)) }),
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    r.on("error", reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

describe("malformed input", () => {
  it("≥ 1,000 generated bad requests get only 4xx in the error receipt shape; the server stays healthy", async () => {
    const requests = generate(20261122, 1_200);
    expect(requests.length).toBeGreaterThanOrEqual(1_000);
    const failures: string[] = [];
    const byKind = new Map<string, Set<number>>();
    for (let i = 0; i < requests.length; i += 8) {
      const batch = requests.slice(i, i + 8);
      const results = await Promise.all(batch.map(send));
      results.forEach((res, j) => {
        const req = batch[j]!;
        (byKind.get(req.kind) ?? byKind.set(req.kind, new Set()).get(req.kind)!).add(res.status);
        const describe = `${req.kind} ${req.method} ${req.path.slice(0, 120)} → ${res.status} ${res.body.slice(0, 200)}`;
        if (res.status < 400 || res.status >= 500) failures.push(describe);
        else if (req.method !== "HEAD" && !ErrorReceiptSchema.safeParse(JSON.parse(res.body || "null")).success)
          failures.push(`not an error receipt: ${describe}`);
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
