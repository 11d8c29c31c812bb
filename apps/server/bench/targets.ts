// Bench targets, in their own process: the real server (bounded GET /api/artifacts/:ref on a
// memory store and on an fs store, with and without reusing access checks, and with the selection
// cache off) and a bare Fastify route returning the same bytes. Prints their URLs and the path as JSON.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { openStore } from "@artifact-refs/store-spec";
import { applySelector } from "@artifact-refs/resolve";
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

// Distinct selections: 20 different grep/range selectors over one chunked artifact (~2 MB, over the
// 512 KiB one-blob size) in the fs store, selection cache off, so every request selects anew; the
// store's chunk cache keeps the verified chunks. The floor, in this process: the same selection on
// the decoded text (one scan with the same engine) plus the receipt's JSON, CPU µs per selection.
const bigLines = Array.from(
  { length: 24_000 },
  (_, i) =>
    `2026-11-22T10:${String(i % 60).padStart(2, "0")}:00Z ${i % 89 === 0 ? "ERROR" : i % 13 === 0 ? "WARN" : "INFO"} worker-${i % 16} handled request ${i * 7919} for user-${i % 517} in ${(i * 7) % 997} ms`,
);
const bigText = bigLines.join("\n");
const big = await fsStore.put(bigText, { session: "bench", type: "log", label: "big-service.log" });
if (!big.record.chunked) throw new Error("the distinct-selection artifact should be chunked");
const distinctSelectors = [
  ...[
    "ERROR",
    "WARN",
    "worker-3 ",
    "user-42\\b",
    "in 99[0-9] ms",
    "request 7919\\b",
    "10:59:00Z",
    "ERROR.*worker-1[0-5]",
    "user-5[0-9]{2}",
    "(?i)error",
    "worker-7 handled request [0-9]+1 ",
    "T10:0[0-9]",
    "in [0-9] ms",
    "nothing-matches-this",
  ].map((pattern, i) => ({ mode: "grep", pattern, context: i % 3 })),
  ...[1, 1_000, 5_000, 11_111, 17_000, 23_990].map((start) => ({ mode: "range", start, end: start + 40 })),
] as const;
const distinctPaths = distinctSelectors.map((sel) => {
  const q = new URLSearchParams({ session: "bench" });
  for (const [k, v] of Object.entries(sel)) q.set(k, String(v));
  return `/api/artifacts/${big.shortRef}?${q}`;
});
const distinct = await startServer({ store: fsStore, ...options, selectionCacheChars: 0 });
for (const p of distinctPaths) {
  const r = await fetch(`${distinct.url}${p}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (r.status !== 200) throw new Error(`distinct selection failed: ${r.status} ${await r.text()}`);
}
const floorCpuUs = (() => {
  const rounds = 10;
  const before = process.cpuUsage();
  for (let round = 0; round < rounds; round++)
    for (const sel of distinctSelectors)
      JSON.stringify({ artifact_reference: big.shortRef, ...applySelector(bigText, sel) });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (rounds * distinctSelectors.length);
})();

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
  distinct: distinct.url,
  bare: `http://127.0.0.1:${barePort}`,
};
console.log(
  JSON.stringify({
    ...urls,
    path,
    distinctPaths,
    floorCpuUs,
    distinctArtifactBytes: big.record.size_bytes,
    distinctChunks: big.record.chunked.chunks,
    token: TOKEN,
    bytes: bytes.byteLength,
    artifactBytes: put.record.size_bytes,
  }),
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
    void Promise.all([real, strict, uncached, fsServer, fsStrict, distinct, bare].map((s) => s.close()))
      .then(() => rm(dir, { recursive: true, force: true }))
      .then(() => process.exit(0)),
);
