import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ErrorReceiptSchema } from "@artifact-refs/schema";
import { startServer, type RunningServer } from "@artifact-refs/server";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rng, type Rng } from "@artifact-refs/tooling/testing/rng";
import {
  type BadRequest,
  badAnswer,
  malformedGenerators,
  sendRaw,
} from "@artifact-refs/tooling/testing/malformed-http";
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

let server: RunningServer;
let store: ArtifactStore;
let base: string;

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
});
afterAll(async () => {
  await server?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

const send = (req: BadRequest) => sendRaw(server.url, req);

/** One generated malformed request: the shared kinds plus this run's own (workspace escapes, other sessions' reads). */
function malformed(r: Rng, refs: string[]): BadRequest {
  const auth = { authorization: `Bearer ${TOKEN_A}` };
  const ref = refs.length > 0 ? r.pick(refs) : "art:000000000000";
  const gens: Array<() => BadRequest> = [
    ...malformedGenerators({ r, token: TOKEN_A, admin: ADMIN, bodyLimit: BODY_LIMIT, ref: () => ref }),
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
        if (res.status >= 500) fiveXX++;
        if (req.kind === "escape-tool") {
          const line = `${req.kind} ${req.method} ${req.path.slice(0, 120)} → ${res.status} ${res.body.slice(0, 200)}`;
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
        const failure = badAnswer(req, res, (body) => ErrorReceiptSchema.safeParse(body).success);
        if (failure) failures.push(failure);
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
