import { request } from "node:http";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ErrorReceiptSchema } from "@artifact-refs/schema";
import { startServer, type RunningServer } from "@artifact-refs/server";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rng, type Rng } from "@artifact-refs/tooling/testing/rng";
import { seedFromEnv } from "../src/seed.js";
import { scale } from "../src/scale.js";
import { report } from "../src/summary.js";

/**
 * The server's malformed-input run scaled up, against the real server on a real fs store,
 * with valid traffic at the same time: every malformed request gets a 4xx error receipt,
 * no request gets a 5xx, every acknowledged put reads back byte for byte, and no token
 * reads another session's artifacts.
 */
const ADMIN = "admin-token-0123456789abcdef";
const TOKEN_A = "token-a-0123456789abcdefghij";
const TOKEN_B = "token-b-0123456789abcdefghij";
const BODY_LIMIT = 16 * 1024;

interface Req {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}
interface Res {
  status: number;
  body: string;
}

let server: RunningServer;
let store: ArtifactStore;
let base: string;
let host: { hostname: string; port: string };

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "aref-http-"));
  await mkdir(join(base, "ws"));
  await writeFile(join(base, "ws", "README.md"), "# workspace\nhello\n");
  // Raw stash bodies stream up to the store's cap, JSON bodies up to bodyLimit: the same limit for both here.
  store = new ArtifactStore({ driver: new FsDriver({ root: join(base, "store") }), maxBytes: BODY_LIMIT });
  server = await startServer({
    store,
    workspace: join(base, "ws"),
    tokens: { admin: ADMIN, sessions: { [TOKEN_A]: ["sess-a"], [TOKEN_B]: ["sess-b"] } },
    rateLimit: false,
    ui: false,
    bodyLimit: BODY_LIMIT,
  });
  const url = new URL(server.url);
  host = { hostname: url.hostname, port: url.port };
});
afterAll(async () => {
  await server?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

function send(req: Req): Promise<Res> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...req.headers,
      ...(req.body === undefined ? {} : { "content-length": String(Buffer.byteLength(req.body)) }),
    };
    const r = request({ host: host.hostname, port: host.port, method: req.method, path: req.path, headers }, (res) => {
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
  "sess-a/../sess-b",
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
  "..%2F..%2Fetc%2Fpasswd",
  "x".repeat(300),
  "art:%00%00",
  "sha256:abc",
  `aref:v2:sha256:${"0".repeat(64)}`,
  " art:0123456789ab",
  "%2e%2e",
  "....//....//",
];
const JSON_ROUTES = ["/api/artifacts/execute", "/api/chat"];

/** One generated malformed request; `refs` are real refs of sess-a (for selector and foreign-read cases). */
function malformed(r: Rng, refs: string[]): Req {
  const auth = { authorization: `Bearer ${TOKEN_A}` };
  const ref = refs.length > 0 ? r.pick(refs) : "art:000000000000";
  const gens: Array<() => Req> = [
    () => ({
      kind: "invalid-json",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: { ...auth, "content-type": "application/json" },
      body:
        r.pick(["{", '{"a":', "[1,2", "nul", "{'a':1}", "\u0000", '{"session_id":"sess-a",}', "tru"]) +
        r.bytes(r.int(8)).toString("latin1"),
    }),
    () => ({
      kind: "wrong-shape",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(
        r.pick<unknown>([
          null,
          42,
          "s",
          [],
          {},
          { session_id: 5 },
          { session_id: "sess-a" },
          { session_id: "sess-a", message: "" },
          { session_id: "sess-a", tool_name: "" },
          { session_id: "sess-a", tool_name: "read_file", tool_args: "x" },
          { session_id: "sess-b", message: "hi" },
        ]),
      ),
    }),
    () => ({
      kind: "deep-json",
      method: "POST",
      path: r.pick(JSON_ROUTES),
      headers: { ...auth, "content-type": "application/json" },
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
        ]),
      },
      body: '{"session_id":"sess-a","message":"hi"}',
    }),
    () => ({
      kind: "oversized",
      method: "POST",
      path: r.pick(["/api/artifacts?session=sess-a", ...JSON_ROUTES]),
      headers: { ...auth, "content-type": r.pick(["text/plain", "application/json", "application/octet-stream"]) },
      body: "x".repeat(BODY_LIMIT + 1 + r.int(BODY_LIMIT)),
    }),
    () => ({
      kind: "bad-stash",
      method: "POST",
      path: r.pick([
        "/api/artifacts?session=sess-a&type=nope",
        "/api/artifacts?session=sess-a&ttl_ms=0",
        "/api/artifacts?session=sess-a&ttl_ms=abc",
        "/api/artifacts?session=sess-a&unknown=1",
        "/api/artifacts?session=",
        `/api/artifacts?session=${encodeURIComponent(r.pick(BAD_SESSIONS))}`,
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
      path: `/api/artifacts/${ref}?session=sess-a&${r.pick(["mode=grep", "mode=grep&pattern=", "mode=grep&pattern=(", "mode=grep&pattern=%28a%2B%29%2B%5C1", "mode=grep&pattern=a&context=101", "mode=range", "mode=range&start=5&end=1", "mode=range&start=abc", "mode=jsonpath&expr=", "mode=jsonpath&expr=%24%5B", "mode=headtail&head=-1", "maxChars=0", "maxChars=100001", "mode=nope", "bogus=1", `mode=grep&pattern=${"a".repeat(1_001)}`])}`,
      headers: auth,
    }),
    () => ({
      kind: "bad-session-id",
      method: "GET",
      path: `/api/sessions/${encodeURIComponent(r.pick(BAD_SESSIONS.filter((s) => s !== ""))).replace(/%25/g, "%")}/${r.pick(["artifacts", "metrics", "hot-state", "executions"])}`,
      headers: { authorization: `Bearer ${ADMIN}` },
    }),
    () => ({
      kind: "bad-delete",
      method: "DELETE",
      path: `/api/sessions/sess-a/artifacts/${encodeURIComponent(r.pick(BAD_REFS.filter((s) => s !== "")))}`,
      headers: auth,
    }),
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
          `Bearer ${TOKEN_A.slice(0, -1)}`,
          `Bearer ${"x".repeat(600)}`,
          "Token abc",
        ]),
      },
    }),
    // A tool asked to read outside its workspace: the execution is recorded as an error, nothing is read.
    () => ({
      kind: "escape-tool",
      method: "POST",
      path: "/api/artifacts/execute",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        session_id: "sess-a",
        tool_name: r.pick(["read_file", "list_files"]),
        tool_args: {
          path: r.pick(["../../etc/passwd", "/etc/passwd", "../", "..", "/proc/self/environ", "ws/../../x"]),
        },
      }),
    }),
    // Another session's artifacts: never readable with TOKEN_B, whatever the route.
    () => ({
      kind: "foreign",
      method: r.pick(["GET", "HEAD"]),
      path: r.pick([
        `/api/artifacts/${ref}?session=sess-b`,
        `/api/artifacts/${ref}?session=sess-a`,
        `/api/artifacts/${ref}`,
        "/api/sessions/sess-a/artifacts",
        `/api/artifacts/context/sess-a`,
      ]),
      headers: { authorization: `Bearer ${TOKEN_B}` },
    }),
    () => ({
      kind: "foreign-delete",
      method: "DELETE",
      path: `/api/sessions/sess-a/artifacts/${ref}`,
      headers: { authorization: `Bearer ${TOKEN_B}` },
    }),
    () => ({
      kind: "unknown-route",
      method: r.pick(["PUT", "PATCH", "DELETE", "POST", "OPTIONS"]),
      path: r.pick([
        `/api/artifacts/${ref}`,
        "/api/sessions",
        "/api/nope",
        "/healthz/x",
        "/api/sessions/sess-a",
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
        `/api/artifacts/${ref}?session=sess-a&session=sess-b`,
      ]),
      headers: auth,
    }),
  ];
  return gens[r.int(gens.length)]!();
}

describe("HTTP: malformed requests with concurrent valid traffic", () => {
  it("0 5xx, only 4xx error receipts for bad input, every acknowledged put readable, no cross-session read", async () => {
    const seed = seedFromEnv();
    const r = rng(seed);
    const total = scale(1_000, 10_000);
    const validWriters = 4;
    const failures: string[] = [];
    const acked = new Map<string, string>(); // id -> content
    const refs: string[] = [];
    const statusByKind = new Map<string, Map<number, number>>();
    let fiveXX = 0;
    let validRequests = 0;
    let done = false;
    const started = Date.now();

    // Valid traffic: puts (some of the same content twice) and reads, until the malformed run ends.
    const writer = async (w: number) => {
      const wr = rng(seed + 1 + w);
      for (let i = 0; !done || i < 20; i++) {
        const content = `writer ${w} item ${i} ${wr.int(1_000_000)}\n${"line of text\n".repeat(1 + wr.int(200))}`;
        const res = await send({
          kind: "put",
          method: "POST",
          path: "/api/artifacts?session=sess-a",
          headers: { authorization: `Bearer ${TOKEN_A}`, "content-type": "text/plain" },
          body: content,
        });
        validRequests++;
        if (res.status >= 500) fiveXX++;
        if (res.status !== 201) {
          failures.push(`valid put → ${res.status} ${res.body.slice(0, 200)}`);
          continue;
        }
        const receipt = JSON.parse(res.body) as { artifact_id: string; short_ref: string };
        acked.set(receipt.artifact_id, content);
        refs.push(receipt.short_ref);
        if (i % 3 === 0) {
          const get = await send({
            kind: "get",
            method: "GET",
            path: `/api/artifacts/${receipt.short_ref}?session=sess-a&mode=grep&pattern=writer`,
            headers: { authorization: `Bearer ${TOKEN_A}` },
          });
          validRequests++;
          if (get.status !== 200) failures.push(`valid get → ${get.status} ${get.body.slice(0, 200)}`);
        }
      }
    };
    const writers = Array.from({ length: validWriters }, (_, w) => writer(w));

    let sent = 0;
    while (sent < total) {
      const batch = Array.from({ length: Math.min(16, total - sent) }, () => malformed(r, refs));
      sent += batch.length;
      const results = await Promise.all(
        batch.map((req) => send(req).catch((e: Error) => ({ status: -1, body: e.message }))),
      );
      results.forEach((res, j) => {
        const req = batch[j]!;
        const byStatus = statusByKind.get(req.kind) ?? statusByKind.set(req.kind, new Map()).get(req.kind)!;
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        const line = `${req.kind} ${req.method} ${req.path.slice(0, 120)} → ${res.status} ${res.body.slice(0, 200)}`;
        if (res.status >= 500) fiveXX++;
        if (req.kind === "escape-tool") {
          const out = JSON.parse(res.body || "null") as { status?: string; result?: string } | null;
          const refused =
            res.status >= 400 && res.status < 500
              ? true
              : res.status === 200 &&
                out?.status === "error" &&
                /PERMISSION_DENIED|outside|NOT_FOUND|INVALID_INPUT/.test(out?.result ?? "");
          if (!refused || res.body.includes("root:")) failures.push(`workspace escape not refused: ${line}`);
          return;
        }
        if (res.status < 400 || res.status >= 500) failures.push(line);
        else if (req.method !== "HEAD" && !ErrorReceiptSchema.safeParse(JSON.parse(res.body || "null")).success)
          failures.push(`not an error receipt: ${line}`);
      });
    }
    done = true;
    await Promise.all(writers);

    // Every acknowledged put reads back: through the API (text) and from the store (bytes).
    let checked = 0;
    for (const [id, content] of acked) {
      const bytes = await store.get(id);
      if (Buffer.from(bytes).toString("utf8") !== content)
        failures.push(`lost write: ${id} reads back different bytes`);
      if (checked++ % 10 === 0) {
        const res = await send({
          kind: "readback",
          method: "GET",
          path: `/api/artifacts/aref:v1:sha256:${id}?session=sess-a&mode=range&start=1&maxChars=100000`,
          headers: { authorization: `Bearer ${TOKEN_A}` },
        });
        if (res.status !== 200 || (JSON.parse(res.body) as { text: string }).text !== content)
          failures.push(`lost write via API: ${id} → ${res.status}`);
      }
    }
    const health = await send({ kind: "health", method: "GET", path: "/healthz", headers: {} });
    const kinds = [...statusByKind].map(([k, m]) => `${k}:${[...m].map(([s, n]) => `${s}×${n}`).join("/")}`).join(" ");
    report(
      "http",
      `${sent} malformed requests + ${validRequests} valid ones at the same time: ${fiveXX} 5xx, ${failures.length} failures, ${acked.size} acknowledged puts all read back (seed ${seed})`,
      {
        malformed: sent,
        valid: validRequests,
        five_xx: fiveXX,
        failures: failures.length,
        acked: acked.size,
        kinds,
        seconds: Math.round((Date.now() - started) / 1000),
        seed,
      },
    );
    expect(failures.slice(0, 30)).toEqual([]);
    expect(fiveXX).toBe(0);
    expect(health.status).toBe(200);
    expect(acked.size).toBeGreaterThan(0);
    for (const kind of ["foreign", "foreign-delete"])
      for (const status of statusByKind.get(kind)?.keys() ?? []) expect([403, 404]).toContain(status);
  });
});
