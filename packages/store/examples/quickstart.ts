// Run: node --conditions=@artifact-refs/source --import tsx packages/store/examples/quickstart.ts
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";

const store = new ArtifactStore({ driver: new MemoryDriver() });

// Stash a large tool output for a session; the prompt keeps only the short ref.
const log = Array.from({ length: 2_000 }, (_, i) => `line ${i}: ${i % 97 === 0 ? "ERROR disk full" : "ok"}`).join("\n");
const put = await store.put(log, { session: "demo", type: "log", label: "build.log", ttlMs: 60 * 60 * 1000 });
console.log(`stored ${put.record.size_bytes} bytes as ${put.shortRef} (${put.handle})`);

// Same bytes, same id: stored once.
const again = await store.put(log, { session: "other" });
console.log(`second put created a new blob: ${again.created}`);

// Every read is integrity-checked; short refs resolve within the session.
const text = await store.getText(put.shortRef, { session: "demo" });
console.log(`read back ${text.length} chars, identical: ${text === log}`);

console.log("stats:", await store.stats());
console.log(
  "references of demo:",
  (await store.listReferences("demo")).map((r) => r.label),
);
