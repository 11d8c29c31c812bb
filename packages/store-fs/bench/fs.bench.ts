// fs store put/get throughput, side by side in one run with cacache (npm's content-addressed
// cache) and with a raw "sha256 + writeFile + rename" loop, for 4 KiB, 64 KiB and 512 KiB
// blobs. Run: pnpm --filter @artifact-refs/store-fs bench   (or `pnpm bench` at the root).
//
// Every put stores new bytes (a counter is written into the buffer), so dedupe cannot
// flatter anyone; the dedupe row re-puts one stored content on purpose. Every get checks
// integrity: ArtifactStore hashes what it read, cacache checks its ssri digest, the raw
// loop hashes too. cacache never fsyncs, so the like-for-like comparison is our
// fsync:false row; the default (fsync on) is shown as well.
//
// Cases are interleaved: small batches of each case in turn, rotating the order, until
// each has run its share of time. The machines these run on are shared, and a burst of
// load during one case of a sequential run (the harness's `compare`) decides its ratio;
// interleaving spreads the noise over every case alike. ops/s is operations ÷ total time.
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { machine, table, type HarnessRow } from "@artifact-refs/tooling/bench/harness";
import cacache from "cacache";

type Row = HarnessRow;

const SIZES = [
  ["4 KiB", 4 * 1024],
  ["64 KiB", 64 * 1024],
  ["512 KiB", 512 * 1024],
] as const;
const GET_SET = 64; // distinct stored items each get loop cycles through
const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 3_000); // per case
const BATCH = 8;
const WARMUP = 16;

type Cases = Record<string, () => Promise<unknown>>;

async function interleaved(title: string, baseline: string, cases: Cases): Promise<Row[]> {
  const names = Object.keys(cases);
  const latencies = new Map(names.map((n) => [n, [] as number[]]));
  for (const name of names) for (let i = 0; i < WARMUP; i++) await cases[name]!();
  const deadline = performance.now() + TIME_MS * names.length;
  for (let round = 0; performance.now() < deadline; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]!;
      const samples = latencies.get(name)!;
      for (let i = 0; i < BATCH; i++) {
        const start = performance.now();
        await cases[name]!();
        samples.push(performance.now() - start);
      }
    }
  }
  const rows = names.map((name) => {
    const samples = latencies.get(name)!;
    const total = samples.reduce((a, b) => a + b, 0);
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      name,
      opsPerSec: (samples.length * 1000) / total,
      meanMs: total / samples.length,
      p99Ms: sorted[Math.floor(sorted.length * 0.99)]!,
      ratio: 0,
    };
  });
  const base = rows.find((r) => r.name === baseline)!.opsPerSec;
  for (const row of rows) row.ratio = row.opsPerSec / base;
  console.log(`\n### ${title}\n`);
  console.log(table(rows));
  return rows;
}

/** Log-like text of `size` bytes (the store's real use: tool outputs) whose first 16 bytes are a counter. */
function makeContent(size: number): () => Uint8Array {
  const line = "2026-11-22T10:00:00.000Z INFO worker[3] processed request id=af31c2 status=200 duration_ms=12\n";
  const bytes = Buffer.alloc(size, line);
  let counter = 0;
  return () => {
    bytes.write(String(counter++).padStart(16, "0"), 0, "latin1");
    return bytes;
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function main() {
  console.log("# fs store benchmark\n");
  console.log(`Machine: ${machine()}`);
  console.log(
    `Load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")} (1, 5, 15 min)`,
  );
  console.log(
    `Each case: ${TIME_MS} ms in interleaved batches of ${BATCH} after ${WARMUP} warm-up calls; ratios are to cacache in the same run.`,
  );
  const base = await mkdtemp(join(tmpdir(), "aref-bench-"));
  const summary: string[] = [];
  try {
    for (const [label, size] of SIZES) {
      const dir = join(base, label.replace(" ", ""));
      const durable = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "aref-fsync") }) });
      const fast = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "aref-nofsync"), fsync: false }) });
      const cache = join(dir, "cacache");
      const raw = join(dir, "raw");
      await mkdir(raw, { recursive: true });
      const next = makeContent(size);
      let key = 0;
      let rawTemp = 0;
      const dedupeBytes = Buffer.from(next());
      await fast.put(dedupeBytes);

      const put = await interleaved(`put, ${label} (new content every call)`, "cacache.put", {
        "cacache.put": () => cacache.put(cache, `k${key++}`, next()),
        "aref fs put, fsync:false": () => fast.put(next()),
        "aref fs put, fsync (default)": () => durable.put(next()),
        "raw sha256 + writeFile + rename": async () => {
          const bytes = next();
          const temp = join(raw, `.tmp-${rawTemp++}`);
          await writeFile(temp, bytes);
          await rename(temp, join(raw, sha256(bytes)));
        },
        "aref fs put, fsync:false, dedupe (same content)": () => fast.put(dedupeBytes),
      });

      const ids: string[] = [];
      const keys: string[] = [];
      const rawIds: string[] = [];
      for (let i = 0; i < GET_SET; i++) {
        const bytes = next();
        ids.push((await fast.put(bytes)).id);
        keys.push(`get${i}`);
        await cacache.put(cache, `get${i}`, bytes);
        const id = sha256(bytes);
        await writeFile(join(raw, id), bytes);
        rawIds.push(id);
      }
      let g = 0;
      const get = await interleaved(`get, ${label} (integrity checked on every read)`, "cacache.get", {
        "cacache.get": () => cacache.get(cache, keys[g++ % GET_SET]!),
        "aref fs get": () => fast.get(ids[g++ % GET_SET]!),
        "raw readFile + sha256": async () => {
          const id = rawIds[g++ % GET_SET]!;
          if (sha256(await readFile(join(raw, id))) !== id) throw new Error("corrupt");
        },
      });
      const ratio = (rows: Row[], name: string) => `${rows.find((r) => r.name === name)!.ratio.toFixed(2)}×`;
      summary.push(
        `| ${label} | ${ratio(put, "aref fs put, fsync:false")} | ${ratio(put, "aref fs put, fsync (default)")} | ${ratio(get, "aref fs get")} |`,
      );
      await rm(dir, { recursive: true, force: true });
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  console.log("\n### Summary: aref fs store ÷ cacache (same run)\n");
  console.log(
    "| size | put, fsync:false (like cacache) | put, fsync (default) | get (integrity-checked) |\n|---|---:|---:|---:|",
  );
  for (const line of summary) console.log(line);
  console.log(
    `\nLoad average at end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}`,
  );
}

await main();
