// Bench targets, in their own process: the real server (bounded GET /api/artifacts/:ref on a
// memory store and on an fs store, with and without reusing access checks, and with the selection
// cache off) and a bare Fastify route returning the same bytes. Prints their URLs and the path as JSON.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { openStore } from "@artifact-refs/store-spec";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { startServer } from "../src/index.js";

const TOKEN = "bench-admin-token-0123456789";
const store = new ArtifactStore({ driver: new MemoryDriver() });
const lines = Array.from(
  { length: 4_000 },
  (_, i) =>
    `2026-11-22T10:00:${String(i % 60).padStart(2, "0")}Z ${i % 97 === 0 ? "ERROR" : "INFO"} worker-${i % 8} handled request ${i} in ${(i * 7) % 300} ms`,
);
const put = await store.put(lines.join("\n"), { session: "bench", type: "log", label: "service.log" });
const options = { tokens: { admin: TOKEN }, rateLimit: false, ui: false } as const;
const real = await startServer({ store, ...options });
const strict = await startServer({ store, ...options, accessCacheMs: 0 });
const uncached = await startServer({ store, ...options, selectionCacheChars: 0 });
// The same content in an fs store (a temporary directory), same short ref.
const dir = await mkdtemp(join(tmpdir(), "aref-server-bench-"));
const fsStore = await openStore(dir);
await fsStore.put(lines.join("\n"), { session: "bench", type: "log", label: "service.log" });
const fsServer = await startServer({ store: fsStore, ...options });
const fsStrict = await startServer({ store: fsStore, ...options, accessCacheMs: 0 });
const path = `/api/artifacts/${put.shortRef}?session=bench&mode=grep&pattern=ERROR&context=1`;
const response = await fetch(`${real.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
if (response.status !== 200) throw new Error(`bench fetch failed: ${response.status} ${await response.text()}`);
const bytes = Buffer.from(await response.arrayBuffer());

const bare = Fastify({ logger: false });
bare.get("/api/artifacts/:ref", async (_req, reply) => {
  reply.type("application/json; charset=utf-8");
  return bytes;
});
await bare.listen({ port: 0, host: "127.0.0.1" });
const barePort = (bare.server.address() as { port: number }).port;
const urls = {
  real: real.url,
  strict: strict.url,
  uncached: uncached.url,
  fs: fsServer.url,
  fsStrict: fsStrict.url,
  bare: `http://127.0.0.1:${barePort}`,
};
console.log(
  JSON.stringify({ ...urls, path, token: TOKEN, bytes: bytes.byteLength, artifactBytes: put.record.size_bytes }),
);
// The parent asks for this process's CPU time around each run (µs of user + system).
process.on("message", (message) => {
  if (message === "cpu") {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  }
});
process.on(
  "SIGTERM",
  () =>
    void Promise.all([real, strict, uncached, fsServer, fsStrict, bare].map((s) => s.close()))
      .then(() => rm(dir, { recursive: true, force: true }))
      .then(() => process.exit(0)),
);
