// Streaming stash and cat of one big file (default 256 MB, BENCH_STREAM_MB to change), side by side
// in one run with the physical floor on the same machine (`sha256sum` + `cp` of the file) and with
// cacache's streaming put/get; then the dedupe of a one-line change in a 50 MB log.
// Run: pnpm --filter @artifact-refs/store-fs bench:stream
//
// Each case runs BENCH_ROUNDS times (default 3), interleaved (floor, ours, cacache, floor, ...),
// and the best time of each is kept: the machines these run on are shared, and the best of a
// few rounds is the least disturbed. Throughput is file size ÷ time. Peak memory of our stash and
// cat is measured in child processes by the CLI acceptance test (apps/cli/test/big-artifact.test.ts).
import { execFileSync } from "node:child_process";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver, readFilePieces } from "@artifact-refs/store-fs";
import { machine } from "@artifact-refs/tooling/bench/harness";
import { logText } from "./log-text.js";
import cacache from "cacache";

const MB = Number(process.env.BENCH_STREAM_MB ?? 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const dir = await mkdtemp(join(tmpdir(), "aref-stream-bench-"));
try {
  const file = join(dir, "big.log");
  await writeFile(file, logText(MB * 1024 * 1024, 7).join(""));
  const size = MB * 1024 * 1024;
  const best: Record<string, number> = {};
  const keep = (name: string, ms: number) => (best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, ms));
  // Process CPU (every thread: main, chunk workers, the fs thread pool) of each stash, user and system.
  const cpu: Record<string, { user: number; system: number }[]> = {};
  const stashTimed = async (name: string, fn: () => Promise<unknown>) => {
    const before = process.cpuUsage();
    keep(name, await timed(fn));
    const used = process.cpuUsage(before);
    (cpu[name] ??= []).push({ user: used.user / 1000, system: used.system / 1000 });
  };

  for (let round = 0; round < ROUNDS; round++) {
    const r = join(dir, `r${round}`);
    // The floor: hash the file, and copy it (cp, kernel-side).
    keep("floor: sha256sum", await timed(() => execFileSync("sha256sum", [file])));
    keep("floor: cp", await timed(() => execFileSync("cp", [file, `${r}-copy`])));
    keep("floor: sha256sum + cp", best["floor: sha256sum"]! + best["floor: cp"]!);
    // Ours: putStream of the file as `aref stash <file>` reads it (readFilePieces: reused buffers)
    // into a fresh fs store; getStream to a file. cacache never
    // fsyncs, so the like-for-like row is fsync:false; the default (fsync each file) is shown too.
    let id = "";
    let chunks = 0;
    // A/B rows in the same round: the stash with all of its CPU work on the main thread (no chunk
    // worker), with each chunk copied and written on its own (no gathered pack writes), and read
    // through a fs.createReadStream (a new buffer per read, as cacache's row reads it).
    for (const [name, env] of [
      ["aref stash (putStream, fsync:false, no chunk worker)", "AREF_CHUNK_WORKER"],
      ["aref stash (putStream, fsync:false, no gathered writes)", "AREF_STASH_GATHER"],
      ["aref stash (putStream, fsync:false, from a createReadStream)", undefined],
    ] as const) {
      if (env !== undefined) process.env[env] = "off";
      const store = new ArtifactStore({ driver: new FsDriver({ root: `${r}-store-ab`, fsync: false }) });
      const source = env === undefined ? createReadStream(file, { highWaterMark: 256 * 1024 }) : readFilePieces(file);
      await stashTimed(name, () => store.putStream(source, { session: "bench" }));
      await rm(`${r}-store-ab`, { recursive: true, force: true });
      if (env !== undefined) delete process.env[env];
    }
    for (const fsync of [false, true]) {
      const store = new ArtifactStore({ driver: new FsDriver({ root: `${r}-store-${fsync}`, fsync }) });
      await stashTimed(
        `aref stash (putStream${fsync ? ", fsync" : ", fsync:false"})`,
        async () =>
          ({
            id,
            record: {
              chunked: { chunks } = { chunks: 0 },
            },
          } = await store.putStream(readFilePieces(file), { session: "bench" })),
      );
      if (!fsync)
        keep(
          "aref cat (getStream)",
          await timed(async () => pipeline(await store.getStream(id), createWriteStream(`${r}-out`))),
        );
      await rm(`${r}-store-${fsync}`, { recursive: true, force: true });
    }
    // The layout's own floor: as many files as the stash wrote chunks, of their average size, each
    // created the way the driver creates a new chunk (mkdir of its blobs/sha256/ab/cd shard, a temp
    // file, link to the final name, unlink the temp), with plain synchronous calls: no chunking, no
    // hashing, no fsync. What one file per ~64 KiB chunk costs this file system, whoever writes it.
    if (chunks > 0) {
      const root = `${r}-layout`;
      keep(
        "layout floor: one file per chunk (mkdir shard + temp + link + unlink)",
        await timed(() => {
          const piece = Buffer.alloc(Math.ceil(size / chunks));
          const fd = openSync(file, "r");
          try {
            for (let i = 0; i < chunks; i++) {
              const n = readSync(fd, piece, 0, piece.length, null);
              const hex = createHash("sha256").update(`${round} ${i}`).digest("hex");
              const dir = join(root, hex.slice(0, 2), hex.slice(2, 4));
              mkdirSync(dir, { recursive: true, mode: 0o700 });
              const temp = join(dir, `.tmp-${i}`);
              const out = openSync(temp, "wx", 0o600);
              writeSync(out, piece, 0, n);
              closeSync(out);
              linkSync(temp, join(dir, hex));
              unlinkSync(temp);
            }
          } finally {
            closeSync(fd);
          }
        }),
      );
      await rm(root, { recursive: true, force: true });
    }
    // cacache: streaming put and get (integrity-checked by ssri).
    const cache = `${r}-cacache`;
    keep(
      "cacache put.stream",
      await timed(() =>
        pipeline(createReadStream(file, { highWaterMark: 256 * 1024 }), cacache.put.stream(cache, "big")),
      ),
    );
    keep(
      "cacache get.stream",
      await timed(() => pipeline(cacache.get.stream(cache, "big"), createWriteStream(`${r}-cout`))),
    );
    await rm(cache, { recursive: true, force: true });
    for (const f of ["copy", "out", "cout"]) await rm(`${r}-${f}`, { force: true });
  }

  const mbps = (ms: number) => size / 1024 / 1024 / (ms / 1000);
  const floor = best["floor: sha256sum + cp"]!;
  console.log(`\n${MB} MB log, best of ${ROUNDS} rounds; ${machine()}; load ${loadavg()[0]!.toFixed(1)}\n`);
  console.log("| case | best time | MB/s | vs floor (sha256sum + cp) | vs cacache |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [name, ms] of Object.entries(best)) {
    const peer =
      name.startsWith("aref stash") || name.startsWith("layout floor")
        ? best["cacache put.stream"]
        : name.startsWith("aref cat")
          ? best["cacache get.stream"]
          : undefined;
    const vsFloor =
      name.startsWith("aref") || name.startsWith("cacache") || name.startsWith("layout")
        ? `${(floor / ms).toFixed(2)}×`
        : "";
    console.log(
      `| ${name} | ${(ms / 1000).toFixed(2)} s | ${mbps(ms).toFixed(0)} | ${vsFloor} | ${peer ? `${(peer / ms).toFixed(2)}×` : ""} |`,
    );
  }

  console.log("\n| stash | user CPU per put (each round) | system CPU per put (each round) |");
  console.log("|---|---:|---:|");
  for (const [name, runs] of Object.entries(cpu))
    console.log(
      `| ${name} | ${runs.map((c) => (c.user / 1000).toFixed(2)).join(" / ")} s | ${runs.map((c) => (c.system / 1000).toFixed(2)).join(" / ")} s |`,
    );

  // Dedupe: a 50 MB log, then the same log with one line changed in the middle.
  const store = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "dedupe") }) });
  const lines = logText(50 * 1024 * 1024, 11);
  await store.put(lines.join(""), { session: "v1" });
  const count = async () => {
    let n = 0;
    for await (const _ of store.driver.list("blobs/sha256/")) n++;
    return n;
  };
  const before = await count();
  lines[Math.floor(lines.length / 2)] = "2026-11-23T10:00:00Z ERROR the one changed line\n";
  const second = await store.put(lines.join(""), { session: "v2" });
  const added = (await count()) - before;
  console.log(
    `\ndedupe: 50 MB log, one line changed in the middle: ${second.record.chunked!.chunks} chunks, ${added - 1} new chunks + 1 new manifest (${before} blobs before)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
