/**
 * Process CPU (user + system, every thread) and wall time per 256 MB stash into a fresh fs store
 * (fsync off), the current code against one env switch turned off, alternating A and B in one
 * process so both see the same machine load. Run from packages/store-fs:
 *
 *   node --conditions=@artifact-refs/source --import tsx bench/stash-cpu.bench.ts   # BENCH_AB_ENV=AREF_STASH_GATHER
 *
 * With BENCH_B_TREE=<another checkout of this repository> (installed), B is that checkout's store and
 * fs driver instead of an env switch: a code change against the code before it (e.g. a worktree of
 * main), both loaded in this one process.
 *
 * BENCH_ROUNDS pairs (default 4), BENCH_STREAM_MB (default 256), after one unmeasured put of each
 * side (JIT warm-up and first-touch page faults, which swing the first puts of a process by 2x). Prints each put and the medians,
 * with the process's minor page faults and voluntary context switches (thread hand-offs) per put:
 * counts that a loaded machine changes far less than it changes times. Both sides read the file as
 * `aref stash <file>` does (readFilePieces).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver, readFilePieces } from "@artifact-refs/store-fs";
import { machine } from "@artifact-refs/tooling/bench/harness";
import { logText } from "./log-text.js";

const MB = Number(process.env.BENCH_STREAM_MB ?? 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SWITCH = process.env.BENCH_AB_ENV ?? "AREF_STASH_GATHER";
const B_TREE = process.env.BENCH_B_TREE;

type Open = (root: string) => { putStream: ArtifactStore["putStream"]; close(): Promise<void> };
const openA: Open = (root) => new ArtifactStore({ driver: new FsDriver({ root, fsync: false }) });
const openB: Open = await (async () => {
  if (B_TREE === undefined) return openA;
  const store = await import(join(B_TREE, "packages/store/src/index.ts"));
  const fs = await import(join(B_TREE, "packages/store-fs/src/index.ts"));
  return (root: string) => new store.ArtifactStore({ driver: new fs.FsDriver({ root, fsync: false }) });
})();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = await mkdtemp(join(tmpdir(), "aref-stash-cpu-"));
try {
  const file = join(dir, "big.log");
  await writeFile(file, logText(MB * 1024 * 1024, 7).join(""));
  const runs: Record<"A" | "B", { wall: number; user: number; system: number; faults: number; switches: number }[]> = {
    A: [],
    B: [],
  };
  const loads: number[] = [];
  for (const [side, open] of [
    ["A", openA],
    ["B", openB],
  ] as const) {
    if (side === "B" && B_TREE === undefined) process.env[SWITCH] = "off";
    const root = join(dir, `warm-up-${side}`);
    const store = open(root);
    await store.putStream(readFilePieces(file), { session: "bench" });
    delete process.env[SWITCH];
    await store.close();
    await rm(root, { recursive: true, force: true });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const)) {
      if (side === "B" && B_TREE === undefined) process.env[SWITCH] = "off";
      const root = join(dir, `store-${round}-${side}`);
      const store = (side === "A" ? openA : openB)(root);
      const cpu = process.cpuUsage();
      const usage = process.resourceUsage();
      const start = performance.now();
      await store.putStream(readFilePieces(file), { session: "bench" });
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      const after = process.resourceUsage();
      const faults = after.minorPageFault - usage.minorPageFault;
      const switches = after.voluntaryContextSwitches - usage.voluntaryContextSwitches;
      delete process.env[SWITCH];
      runs[side].push({ wall, user: used.user / 1000, system: used.system / 1000, faults, switches });
      loads.push(loadavg()[0]!);
      console.log(
        `${side} round ${round}: wall ${wall.toFixed(0)} ms, user ${(used.user / 1000).toFixed(0)} ms, system ${(used.system / 1000).toFixed(0)} ms, ${faults} minor faults, ${switches} voluntary switches, load ${loadavg()[0]!.toFixed(1)}`,
      );
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  }
  console.log(
    `\n${MB} MB log, ${ROUNDS} pairs; ${machine()}; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  );
  const bName = B_TREE === undefined ? `${SWITCH}=off` : `the store of ${B_TREE}`;
  console.log(`A: current code; B: ${bName}\n`);
  console.log(
    "| stash | median wall | median user CPU | median system CPU | median user + system | median minor page faults | median voluntary context switches |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const side of ["A", "B"] as const) {
    const r = runs[side];
    const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `| ${side === "A" ? "current" : bName} | ${f(median(r.map((x) => x.wall)))} | ${f(median(r.map((x) => x.user)))} | ${f(median(r.map((x) => x.system)))} | ${f(median(r.map((x) => x.user + x.system)))} | ${median(r.map((x) => x.faults))} | ${median(r.map((x) => x.switches))} |`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
