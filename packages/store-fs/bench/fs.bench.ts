// fs store put/get throughput, side by side in one run with cacache (npm's content-addressed
// cache) and with a raw "sha256 + writeFile + rename" loop, for 4 KiB, 64 KiB and 512 KiB
// blobs. Run: pnpm --filter @artifact-refs/store-fs bench   (or `pnpm bench` at the root).
//
// Every put stores new bytes (a counter is written into the buffer), so dedupe cannot
// flatter anyone; the dedupe row re-puts one stored content on purpose. Every get checks
// integrity: ArtifactStore hashes what it read, cacache checks its ssri digest, the raw
// loop hashes too. cacache never fsyncs, so the fair comparison is our fsync:false row;
// the default (fsync on) is shown as well.
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import cacache from "cacache";

interface Row {
  name: string;
  opsPerSec: number;
  ratio: number;
}
interface Harness {
  compare(options: { title: string; cases: Record<string, () => Promise<unknown>>; baseline: string; time?: number; warmupTime?: number }): Promise<Row[]>;
  machine(): string;
}
const harnessUrl = pathToFileURL(join(import.meta.dirname, "../../../tooling/bench/harness.mjs")).href;
const { compare, machine } = (await import(harnessUrl)) as Harness;

const SIZES = [
  ["4 KiB", 4 * 1024],
  ["64 KiB", 64 * 1024],
  ["512 KiB", 512 * 1024],
] as const;
const GET_SET = 64; // distinct stored items each get loop cycles through
const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1_000);
// The machines are shared and noisy: each comparison runs ROUNDS times and the summary
// gives the median ratio, so a burst of load during one case cannot decide the result.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

type CompareOptions = Parameters<Harness["compare"]>[0];

async function rounds(options: CompareOptions): Promise<Row[]> {
  const all: Row[][] = [];
  for (let round = 1; round <= ROUNDS; round++) all.push(await compare({ ...options, title: `${options.title}, round ${round}/${ROUNDS}` }));
  return all[0]!.map((row) => ({
    name: row.name,
    opsPerSec: median(all.map((rows) => rows.find((r) => r.name === row.name)!.opsPerSec)),
    ratio: median(all.map((rows) => rows.find((r) => r.name === row.name)!.ratio)),
  }));
}

/** Log-like text of `size` bytes (the store's real use: tool outputs) whose first 16 bytes are a counter. */
function makeContent(size: number): { bytes: Uint8Array; next: () => Uint8Array } {
  const line = "2026-11-22T10:00:00.000Z INFO worker[3] processed request id=af31c2 status=200 duration_ms=12\n";
  const bytes = Buffer.alloc(size, line);
  let counter = 0;
  return {
    bytes,
    next: () => {
      bytes.write(String(counter++).padStart(16, "0"), 0, "latin1");
      return bytes;
    },
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function main() {
  console.log(`# fs store benchmark\n\nMachine: ${machine()}\nEach case runs ${TIME_MS} ms after a warm-up; ratios are to cacache in the same run.`);
  const base = await mkdtemp(join(tmpdir(), "aref-bench-"));
  const results: Record<string, Row[]> = {};
  try {
    for (const [label, size] of SIZES) {
      const dir = join(base, label.replace(" ", ""));
      const durable = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "aref-fsync") }) });
      const fast = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "aref-nofsync"), fsync: false }) });
      const cache = join(dir, "cacache");
      const raw = join(dir, "raw");
      await mkdir(raw, { recursive: true });
      const content = makeContent(size);
      let key = 0;
      let rawTemp = 0;
      const dedupeBytes = Buffer.from(content.next());
      await fast.put(dedupeBytes);

      results[`put ${label}`] = await rounds({
        title: `put, ${label} (new content every call)`,
        baseline: "cacache.put",
        time: TIME_MS,
        cases: {
          "cacache.put": () => cacache.put(cache, `k${key++}`, content.next()),
          "aref fs put, fsync:false": () => fast.put(content.next()),
          "aref fs put, fsync (default)": () => durable.put(content.next()),
          "raw sha256 + writeFile + rename": async () => {
            const bytes = content.next();
            const temp = join(raw, `.tmp-${rawTemp++}`);
            await writeFile(temp, bytes);
            await rename(temp, join(raw, sha256(bytes)));
          },
          "aref fs put, fsync:false, dedupe (same content)": () => fast.put(dedupeBytes),
        },
      });

      // Get: a fixed set of stored items, cycled through.
      const ids: string[] = [];
      const keys: string[] = [];
      const rawIds: string[] = [];
      for (let i = 0; i < GET_SET; i++) {
        const bytes = content.next();
        ids.push((await fast.put(bytes)).id);
        keys.push(`get${i}`);
        await cacache.put(cache, `get${i}`, bytes);
        const id = sha256(bytes);
        await writeFile(join(raw, id), bytes);
        rawIds.push(id);
      }
      let g = 0;
      results[`get ${label}`] = await rounds({
        title: `get, ${label} (integrity checked on every read)`,
        baseline: "cacache.get",
        time: TIME_MS,
        cases: {
          "cacache.get": () => cacache.get(cache, keys[g++ % GET_SET]!),
          "aref fs get": () => fast.get(ids[g++ % GET_SET]!),
          "raw readFile + sha256": async () => {
            const id = rawIds[g++ % GET_SET]!;
            if (sha256(await readFile(join(raw, id))) !== id) throw new Error("corrupt");
          },
        },
      });
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  console.log(`\n### Summary: median over ${ROUNDS} rounds, ratio to cacache in the same round\n`);
  console.log("| size | case | ops/s | ratio |\n|---|---|---:|---:|");
  for (const [name, rows] of Object.entries(results)) {
    for (const row of rows) console.log(`| ${name} | ${row.name} | ${Math.round(row.opsPerSec).toLocaleString("en-US")} | ${row.ratio.toFixed(2)}× |`);
  }
}

await main();
