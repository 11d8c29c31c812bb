// Externalizer, redaction and rehydration costs on the real trajectories.
// Run: pnpm --filter @artifact-refs/context bench   (node --conditions=@artifact-refs/source --import tsx bench/externalize.bench.ts)
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import {
  Externalizer,
  TranscriptWriter,
  readTranscript,
  redactSecrets,
  rehydrateTranscript,
} from "@artifact-refs/context";

const DIR = join(import.meta.dirname, "../../../../shared/data/trajectories");
const files = readdirSync(DIR)
  .filter((f) => f.endsWith(".jsonl"))
  .sort();
const messages = files.flatMap((f) =>
  readFileSync(join(DIR, f), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => ({ file: f, ...(JSON.parse(l) as { role: string; content: string; tool_name?: string }) })),
);
const toolOutputs = messages.filter((m) => m.role === "tool").map((m) => m.content);
const allText = messages.map((m) => m.content).join("\n");
const big = toolOutputs.filter((t) => t.length > 8_000 && t.length < 100_000)[0]!;
const small = toolOutputs.find((t) => t.length > 200 && t.length < 1_000)!;

console.log(`machine: ${machine()}`);
console.log(
  `corpus: ${files.length} trajectories, ${messages.length} messages, ${toolOutputs.length} tool outputs, ${(allText.length / 1e6).toFixed(2)} M chars`,
);

// 1. Transcript size: naive (payload inline) vs externalized, over every trajectory.
const work = mkdtempSync(join(tmpdir(), "aref-bench-"));
let naiveBytes = 0;
let refBytes = 0;
let stashed = 0;
let fallbacks = 0;
let rehydratedOk = 0;
let t0 = performance.now();
for (const f of files) {
  const store = new ArtifactStore({ driver: new MemoryDriver() });
  const path = join(work, f);
  const writer = new TranscriptWriter({ path, session: "bench", externalizer: new Externalizer({ store }) });
  const lines = messages.filter((m) => m.file === f);
  for (const m of lines) {
    const { file: _f, ...entry } = m;
    naiveBytes += Buffer.byteLength(`${JSON.stringify(entry)}\n`);
    if (m.role === "tool") {
      const r = await writer.appendToolResult({ tool: m.tool_name ?? "tool", result: m.content });
      if (r.action === "stashed") stashed++;
      if (r.action === "fallback") fallbacks++;
    } else await writer.append(entry as never);
  }
  refBytes += readFileSync(path).length;
  const back = await rehydrateTranscript(await readTranscript(path), { store });
  rehydratedOk += back.entries.filter((e, i) => e.content === lines[i]!.content).length;
}
const replayMs = performance.now() - t0;
console.log(`\n### Transcript size on the real trajectories\n`);
console.log(
  `| naive transcript | with references | ratio | tool outputs stashed | fallbacks (over 512 KiB cap) | messages rehydrated identical | replay + rehydrate time |`,
);
console.log(`|---:|---:|---:|---:|---:|---:|---:|`);
console.log(
  `| ${(naiveBytes / 1e6).toFixed(2)} MB | ${(refBytes / 1e6).toFixed(2)} MB | ${(refBytes / naiveBytes).toFixed(3)} | ${stashed} of ${toolOutputs.length} | ${fallbacks} | ${rehydratedOk} of ${messages.length} | ${(replayMs / 1000).toFixed(1)} s |`,
);
rmSync(work, { recursive: true, force: true });

// 2. Per-call costs, side by side.
const store = new ArtifactStore({ driver: new MemoryDriver() });
const ext = new Externalizer({ store });
const noTokens = new Externalizer({ store, countTokens: false });
t0 = performance.now();
redactSecrets(allText);
console.log(
  `\nredaction of the whole corpus (${(allText.length / 1e6).toFixed(2)} M chars) in one pass: ${(performance.now() - t0).toFixed(0)} ms`,
);
await compare({
  title: `Externalizer per tool result (big = ${big.length} chars, small = ${small.length} chars)`,
  baseline: "redact big",
  cases: {
    "redact big": () => void redactSecrets(big),
    "externalize big (redact + preview + store put)": async () =>
      void (await ext.externalize({ session: "b", tool: "t", result: big })),
    "externalize small (inline, token count)": async () =>
      void (await ext.externalize({ session: "b", tool: "t", result: small })),
    "externalize small (inline, no token count)": async () =>
      void (await noTokens.externalize({ session: "b", tool: "t", result: small })),
  },
});
