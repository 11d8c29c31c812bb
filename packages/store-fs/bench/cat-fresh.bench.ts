// `aref cat` of one chunked artifact as the CLI runs it: each cat in a fresh node process (cold driver: the
// packs' indexes are loaded on the first read, nothing is warm in the JIT), against cacache's get.stream
// of the same file, also one fresh process per cat, interleaved. Only the cat itself is timed (not node's
// start or module loading); CPU is all threads of the child. About 256 MB by default (BENCH_STREAM_MB),
// BENCH_ROUNDS rounds (default 7); best and median of each.
// BENCH_BASE=/path/to/another/checkout adds "aref cat (base)": the same cat with that checkout's store and
// fs driver sources (its `pnpm install` done), for an A/B of two versions on one store in one run.
// Run: pnpm --filter @artifact-refs/store-fs bench:cat-fresh
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { machine } from "@artifact-refs/tooling/bench/harness";
import cacache from "cacache";
import { logText } from "./log-text.js";

const MB = Number(process.env.BENCH_STREAM_MB ?? 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const here = dirname(fileURLToPath(import.meta.url));
const checkout = resolve(here, "../../..");
const base = process.env.BENCH_BASE;

interface Run {
  wall: number;
  user: number;
  system: number;
}

function catIn(kind: string, tree: string, dir: string, id: string): Run {
  const out = execFileSync(
    process.execPath,
    ["--conditions=@artifact-refs/source", "--import", "tsx", join(here, "cat-fresh-child.ts"), kind, tree, dir, id],
    { cwd: join(tree, "packages", "store-fs"), encoding: "utf8" },
  );
  return JSON.parse(out.trim().split("\n").pop()!) as Run;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "aref-cat-fresh-"));
  try {
    const content = Buffer.from(logText(MB * 1024 * 1024, 7).join(""));
    const put = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "store"), fsync: false }) });
    const id = (await put.put(content, { session: "bench" })).id;
    await put.close();
    await cacache.put(join(dir, "cacache"), "big", content);
    const cases: [string, string, string][] = [
      ...(base === undefined ? [] : [["aref cat (base)", "aref", resolve(base)] as [string, string, string]]),
      ["aref cat", "aref", checkout],
      ["cacache get.stream", "cacache", checkout],
    ];
    const runs = new Map<string, Run[]>(cases.map(([name]) => [name, []]));
    const load = [loadavg()[0]!];
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, kind, tree] of cases) runs.get(name)!.push(catIn(kind, tree, dir, id));
    load.push(loadavg()[0]!);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
    const c = runs.get("cacache get.stream")!.map((r) => r.wall);
    console.log(
      `\n${MB} MB log, one fresh process per cat, ${ROUNDS} rounds interleaved; ${machine()}; load ${load.map((l) => l.toFixed(1)).join(" → ")}`,
    );
    console.log("| case | best | median | median CPU user + sys | each round (ms) | median vs cacache |");
    console.log("|---|---:|---:|---:|---|---:|");
    for (const [name, rs] of runs) {
      const walls = rs.map((r) => r.wall);
      console.log(
        `| ${name} | ${(sorted(walls)[0]! / 1000).toFixed(2)} s | ${(median(walls) / 1000).toFixed(2)} s | ${median(rs.map((r) => r.user)).toFixed(0)} + ${median(rs.map((r) => r.system)).toFixed(0)} ms | ${walls.map((x) => x.toFixed(0)).join(", ")} | ${(median(c) / median(walls)).toFixed(2)}× |`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
