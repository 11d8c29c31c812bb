// p50 of a resolution per session size, after the session index is built, and the scaling ratio
// time(100k) / time(1k) (target ≤ 3), both on wall time and on CPU time.
// `node --expose-gc --conditions=@artifact-refs/source --import tsx bench/resolve-p50.ts [--help]`
//
// Each (size, way in) is measured in a process of its own (bench/p50-child.ts, started with this
// process's node flags), so one size's heap, collector and compiler work never land in another's
// calls. Sizes are interleaved over several rounds (the order flips each round), each round gives
// its own ratio, and the worst round is printed beside the median: on a shared machine a ratio is
// only as good as its worst round. The load average is printed with every process.
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { machine } from "@artifact-refs/tooling/bench/harness";
import type { CallFigures, WayFigures } from "./p50-child.js";

const HELP = `usage: node --expose-gc --conditions=@artifact-refs/source --import tsx bench/resolve-p50.ts [options] [sizes]
  --sizes a,b,c   session sizes in records (default 1000,10000,100000; also the first positional argument)
  --rounds n      rounds over the sizes, each size once per round in a fresh process (default 3)
  --ways w,w      session (a ResolutionSession) and/or array (resolveReferences over a plain array)
                  (default session,array)
  --json          print one JSON document instead of the text report
  --help          this text
Node flags given to this process (e.g. --single-threaded-gc) are passed on to every measuring process.`;

type Way = "session" | "array";
const WAYS: readonly Way[] = ["session", "array"];
/** The timed call sets of each process (see p50-child.ts): the same messages again, and messages with new words. */
const SETS = ["repeated", "fresh"] as const;

function fail(message: string): never {
  console.error(`resolve-p50: ${message}\n${HELP}`);
  process.exit(2);
}

let args: ReturnType<typeof parseOptions>;
function parseOptions() {
  return parseArgs({
    allowPositionals: true,
    options: {
      sizes: { type: "string" },
      rounds: { type: "string", default: "3" },
      ways: { type: "string", default: "session,array" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
}
try {
  args = parseOptions();
} catch (error) {
  fail((error as Error).message);
}
if (args.values.help) {
  console.log(HELP);
  process.exit(0);
}
const sizes = (args.values.sizes ?? args.positionals[0] ?? "1000,10000,100000").split(",").map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) fail("--sizes takes positive integers, comma-separated");
const rounds = Number(args.values.rounds);
if (!Number.isInteger(rounds) || rounds <= 0) fail("--rounds takes a positive integer");
const ways = args.values.ways.split(",") as Way[];
if (ways.some((w) => !WAYS.includes(w))) fail(`--ways takes ${WAYS.join(" and/or ")}`);

const child = fileURLToPath(new URL("./p50-child.ts", import.meta.url));
const load = () => loadavg()[0]!.toFixed(2);

interface Run {
  round: number;
  n: number;
  way: Way;
  /** 1-minute load average when the process started and when it ended. */
  load: [string, string];
  figures: WayFigures;
}

function run(round: number, n: number, way: Way): Run {
  const before = load();
  const r = spawnSync(process.execPath, [...process.execArgv, child, String(n), way], { encoding: "utf8" });
  if (r.status !== 0) fail(`measuring ${n} records (${way}) failed: ${r.stderr || r.error?.message}`);
  const out = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { ways: Record<Way, WayFigures> };
  return { round, n, way, load: [before, load()], figures: out.ways[way] };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f2 = (x: number) => x.toFixed(2);
const recs = (n: number) => `${n.toLocaleString("en-US")} records`;
const log = (line: string) => {
  if (!args.values.json) console.log(line);
};

log(`machine: ${machine()}; node flags: ${process.execArgv.join(" ")}`);
log(`sizes ${sizes.join(", ")}, ${rounds} round(s), ways ${ways.join(", ")}; load average at start ${load()}`);
const runs: Run[] = [];
for (let round = 1; round <= rounds; round++) {
  // Flip the order every round, so neither size is always measured first (or always after the big one).
  const order = round % 2 === 1 ? sizes : [...sizes].reverse();
  for (const n of order) {
    for (const way of ways) {
      const r = run(round, n, way);
      runs.push(r);
      log(
        `round ${round}, ${recs(n)}, ${way} (load ${r.load[0]} → ${r.load[1]}): first call ${r.figures.first.toFixed(0)} ms`,
      );
      for (const set of SETS) log(`  ${set.padEnd(8)} ${describe(r.figures[set])}`);
    }
  }
}

function describe(f: CallFigures): string {
  const threads =
    f.mainCpuMean === undefined
      ? ""
      : `; mean CPU/call main ${f2(f.mainCpuMean)}, other threads ${f2(f.otherCpuMean!)}`;
  return (
    `p50 wall ${f2(f.wall)} ms, CPU ${f2(f.cpu)} ms (per message wall ${f.perMessage.wall.map(f2).join(" / ")}; ` +
    `CPU ${f.perMessage.cpu.map(f2).join(" / ")}); GC pauses in ${f.gcCalls}/${f.calls} calls, ${f2(f.gcMs)} ms${threads}`
  );
}

const lo = Math.min(...sizes);
const hi = Math.max(...sizes);
const summary: Record<string, unknown> = {};
for (const way of ways) {
  for (const set of SETS) {
    const of = (n: number, round: number) =>
      runs.find((r) => r.n === n && r.way === way && r.round === round)!.figures[set];
    const p50s = Object.fromEntries(
      sizes.map((n) => [n, median(runs.filter((r) => r.n === n && r.way === way).map((r) => r.figures[set].wall))]),
    );
    const ratios = Array.from({ length: rounds }, (_, i) => ({
      wall: of(hi, i + 1).wall / of(lo, i + 1).wall,
      cpu: of(hi, i + 1).cpu / of(lo, i + 1).cpu,
    }));
    summary[`${way} ${set}`] = { p50: p50s, ratios };
    const what = `${way}, ${set} messages`;
    log(`${what}: p50 wall (median over rounds) ${sizes.map((n) => `${recs(n)} ${f2(p50s[n]!)} ms`).join(", ")}`);
    if (lo === hi) continue;
    const wall = ratios.map((r) => r.wall);
    const cpu = ratios.map((r) => r.cpu);
    log(
      `  time(${recs(hi)}) / time(${recs(lo)}) per round: wall ${wall.map(f2).join(", ")}; CPU ${cpu.map(f2).join(", ")}`,
    );
    log(
      `  median / worst: wall ${f2(median(wall))} / ${f2(Math.max(...wall))}, CPU ${f2(median(cpu))} / ${f2(Math.max(...cpu))} (target ≤ 3)`,
    );
  }
}
log(`load average at end ${load()}`);
if (args.values.json) console.log(JSON.stringify({ machine: machine(), flags: process.execArgv, runs, summary }));
