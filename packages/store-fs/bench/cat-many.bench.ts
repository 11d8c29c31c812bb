// cat of one chunked artifact stored in packs, read with the driver's getMany (runs of chunks that sit side
// by side in a pack, one read each) against the same store read one `get` per chunk, and cacache's
// get.stream of the same file, in one process, interleaved (many, one by one, cacache, many, ...). Each cat
// is read by a fresh driver (as `aref cat` in a new process would) and written to a file.
// About 256 MB by default (BENCH_STREAM_MB), BENCH_ROUNDS rounds (default 5); best and median of each.
// Run: pnpm --filter @artifact-refs/store-fs bench:cat-many
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { machine } from "@artifact-refs/tooling/bench/harness";
import cacache from "cacache";
import { logText } from "./log-text.js";

const MB = Number(process.env.BENCH_STREAM_MB ?? 256);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** A fresh fs driver, without getMany for "one by one" (the store then reads one `get` per chunk). */
function driverFor(root: string, many: boolean): FsDriver {
  const driver = new FsDriver({ root, fsync: false });
  if (!many) Object.defineProperty(driver, "getMany", { value: undefined });
  return driver;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "aref-cat-many-"));
  try {
    const content = Buffer.from(logText(MB * 1024 * 1024, 7).join(""));
    const root = join(dir, "store");
    const put = new ArtifactStore({ driver: driverFor(root, true) });
    const id = (await put.put(content, { session: "bench" })).id;
    await put.close();
    const cache = join(dir, "cacache");
    await cacache.put(cache, "big", content);
    const load = [loadavg()[0]!];
    const times: Record<string, number[]> = {
      "aref cat, getMany": [],
      "aref cat, one get per chunk": [],
      "cacache get.stream": [],
    };
    const out = join(dir, "out");
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of Object.keys(times)) {
        await writeFile(out, "");
        const start = performance.now();
        if (name.startsWith("cacache")) {
          await pipeline(cacache.get.stream(cache, "big"), createWriteStream(out));
          times[name]!.push(performance.now() - start);
          continue;
        }
        const store = new ArtifactStore({ driver: driverFor(root, name.endsWith("getMany")) });
        await pipeline(await store.getStream(id), createWriteStream(out));
        times[name]!.push(performance.now() - start);
        await store.close();
      }
    }
    load.push(loadavg()[0]!);
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const best = (xs: number[]) => sorted(xs)[0]!;
    const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
    const c = times["cacache get.stream"]!;
    console.log(
      `\n${MB} MB log, ${ROUNDS} rounds interleaved; ${machine()}; load ${load.map((l) => l.toFixed(1)).join(" → ")}`,
    );
    console.log("| case | best | median | each round (ms) | best vs cacache | median vs cacache |");
    console.log("|---|---:|---:|---|---:|---:|");
    for (const [name, xs] of Object.entries(times)) {
      console.log(
        `| ${name} | ${(best(xs) / 1000).toFixed(2)} s | ${(median(xs) / 1000).toFixed(2)} s | ${xs.map((x) => x.toFixed(0)).join(", ")} | ${(best(c) / best(xs)).toFixed(2)}× | ${(median(c) / median(xs)).toFixed(2)}× |`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
