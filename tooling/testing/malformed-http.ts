// Malformed HTTP requests for the server's API, sent over raw HTTP (no client to tidy them up):
// the bad sessions, refs, bodies, headers and selectors shared by the server's malformed-input
// test and the stress run's HTTP test. Each test adds its own kinds and checks on top.
import { request } from "node:http";
import type { Rng } from "./rng.mjs";

/** One request as sent: `kind` names the generator, for the per-kind status report. */
export interface BadRequest {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  body: string;
}

/** Sends `req` as is to the server at `baseUrl` (content-length set from the body); the body read as UTF-8. */
export function sendRaw(baseUrl: string, req: BadRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers = {
      ...req.headers,
      ...(req.body === undefined ? {} : { "content-length": String(Buffer.byteLength(req.body)) }),
    };
    const r = request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    r.on("error", reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

export const BAD_SESSIONS: readonly string[] = [
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
  "sess-a/../sess-b",
];

export const BAD_REFS: readonly string[] = [
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
  "..%2F..%2Fetc%2Fpasswd",
  "x".repeat(300),
  "art:%00%00",
  "sha256:abc",
  `aref:v2:sha256:${"0".repeat(64)}`,
  " art:0123456789ab",
  "%2e%2e",
  "....//....//",
];

/** The API's JSON-body routes. */
export const JSON_ROUTES: readonly string[] = ["/api/artifacts/execute", "/api/chat"];

const BAD_SELECTORS = [
  "mode=grep",
  "mode=grep&pattern=",
  "mode=grep&pattern=(",
  "mode=grep&pattern=%28a%2B%29%2B%5C1",
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
  "mode=jsonpath&expr=%24%5B",
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
];

export interface MalformedOptions {
  /** The seeded generator every pick comes from. */
  r: Rng;
  /** A token of session `sess-a`, and the admin token. */
  token: string;
  admin: string;
  /** The server's body limit: oversized bodies are 1 to 2 times over it. */
  bodyLimit: number;
  /** A real ref in `sess-a` (for selector cases), asked for each request that needs one. */
  ref: () => string;
}

/**
 * The generators of malformed requests both tests send, one per kind: bodies that are not JSON,
 * JSON of the wrong shape, deep nesting, wrong content types, oversized bodies, bad stash
 * queries and envelopes, bad refs, selectors, session ids and deletes, bad auth headers,
 * unknown routes and methods, bad query strings. Each answer must be a 4xx error receipt.
 */
export function malformedGenerators(o: MalformedOptions): Array<() => BadRequest> {
  const { r } = o;
  const auth = { authorization: `Bearer ${o.token}` };
  const json = { ...auth, "content-type": "application/json" };
  return [
    () => ({
      kind: "invalid-json",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: json,
      body:
        r.pick(["{", '{"a":', "[1,2", "nul", "{'a':1}", "\u0000", '{"session_id":"sess-a",}', "tru", "1e999999x"]) +
        r.bytes(r.int(8)).toString("latin1"),
    }),
    () => ({
      kind: "wrong-shape",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: json,
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
          { session_id: "sess-b", message: "hi" },
        ]),
      ),
    }),
    () => ({
      kind: "deep-json",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: json,
      body: "[".repeat(2_000 + r.int(3_000)) + "]".repeat(10),
    }),
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
    () => ({
      kind: "oversized",
      method: "POST",
      path: r.pick(["/api/artifacts?session=sess-a", ...JSON_ROUTES]),
      headers: { ...auth, "content-type": r.pick(["text/plain", "application/json", "application/octet-stream"]) },
      body: "x".repeat(o.bodyLimit + 1 + r.int(o.bodyLimit)),
    }),
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
      headers: json,
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
    () => ({
      kind: "bad-ref",
      method: r.pick(["GET", "HEAD"]),
      path: `/api/artifacts/${encodeURIComponent(r.pick(BAD_REFS)).replace(/%25/g, r.pick(["%", "%25"]))}?session=sess-a`,
      headers: auth,
    }),
    () => ({
      kind: "bad-selector",
      method: "GET",
      path: `/api/artifacts/${o.ref()}?session=sess-a&${r.pick(BAD_SELECTORS)}`,
      headers: auth,
    }),
    () => ({
      kind: "bad-session-id",
      method: "GET",
      path: `/api/sessions/${encodeURIComponent(r.pick(BAD_SESSIONS)).replace(/%25/g, "%")}/${r.pick(["artifacts", "metrics", "hot-state", "executions"])}`,
      headers: { authorization: `Bearer ${o.admin}` },
    }),
    () => ({
      kind: "bad-delete",
      method: "DELETE",
      path: `/api/sessions/${r.pick(["sess-a", encodeURIComponent(r.pick(BAD_SESSIONS.filter((s) => s !== "")))])}/artifacts/${encodeURIComponent(r.pick(BAD_REFS.filter((s) => s !== "")))}`,
      headers: auth,
    }),
    () => ({
      kind: "bad-auth",
      method: "GET",
      path: r.pick([
        "/api/sessions",
        "/api/sessions/sess-a/artifacts",
        `/api/artifacts/${o.ref()}?session=sess-a`,
        "/metrics",
      ]),
      headers: {
        authorization: r.pick([
          "",
          "Bearer",
          "Bearer ",
          `bearer ${o.token}`,
          `Basic ${o.token}`,
          `Bearer ${o.token}x`,
          `Bearer ${o.token.slice(0, -1)}`,
          `Bearer  ${o.token}`,
          `Bearer ${"x".repeat(600)}`,
          `Bearer ${o.token} extra`,
          "Token abc",
        ]),
      },
    }),
    () => ({
      kind: "unknown-route",
      method: r.pick(["PUT", "PATCH", "DELETE", "POST", "OPTIONS"]),
      path: r.pick([
        `/api/artifacts/${o.ref()}`,
        "/api/sessions",
        "/api/nope",
        "/healthz/x",
        "/api/sessions/sess-a",
        "/api/artifacts/execute/x",
        "/../../etc/passwd",
        "/api/artifacts/%2e%2e%2f%2e%2e%2fetc",
      ]),
      headers: auth,
    }),
    () => ({
      kind: "bad-query",
      method: "GET",
      path: r.pick([
        "/api/sessions/sess-a/artifacts?include_expired=perhaps",
        "/api/sessions/sess-a/artifacts?x=1",
        `/api/artifacts/${o.ref()}?session=sess-a&session=sess-b`,
        `/api/artifacts/${o.ref()}?session=sess-a&mode=grep&pattern=a&pattern=b`,
      ]),
      headers: auth,
    }),
  ];
}

/**
 * What is wrong with the answer to a malformed request, or undefined: it must be a 4xx, and
 * (but for HEAD, which has no body) a body `isReceipt` accepts (the caller's error receipt schema).
 */
export function badAnswer(
  req: BadRequest,
  res: RawResponse,
  isReceipt: (body: unknown) => boolean,
): string | undefined {
  const line = `${req.kind} ${req.method} ${req.path.slice(0, 120)} → ${res.status} ${res.body.slice(0, 200)}`;
  if (res.status < 400 || res.status >= 500) return line;
  if (req.method === "HEAD") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(res.body || "null");
  } catch {
    body = undefined;
  }
  return isReceipt(body) ? undefined : `not an error receipt: ${line}`;
}
