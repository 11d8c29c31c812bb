// Bench targets, in their own process: the real server (bounded GET /api/artifacts/:ref on a
// memory store) and a bare Fastify route returning the same bytes. Prints {real, bare, path} as JSON.
import Fastify from "fastify";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { startServer } from "../src/index.js";

const TOKEN = "bench-admin-token-0123456789";
const store = new ArtifactStore({ driver: new MemoryDriver() });
const lines = Array.from({ length: 4_000 }, (_, i) => `2026-11-22T10:00:${String(i % 60).padStart(2, "0")}Z ${i % 97 === 0 ? "ERROR" : "INFO"} worker-${i % 8} handled request ${i} in ${(i * 7) % 300} ms`);
const put = await store.put(lines.join("\n"), { session: "bench", type: "log", label: "service.log" });
const real = await startServer({ store, tokens: { admin: TOKEN }, rateLimit: false, ui: false });
const uncached = await startServer({ store, tokens: { admin: TOKEN }, rateLimit: false, ui: false, selectionCacheChars: 0 });
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
console.log(JSON.stringify({ real: real.url, uncached: uncached.url, bare: `http://127.0.0.1:${barePort}`, path, token: TOKEN, bytes: bytes.byteLength, artifactBytes: put.record.size_bytes }));
process.on("SIGTERM", () => void Promise.all([real.close(), uncached.close(), bare.close()]).then(() => process.exit(0)));
