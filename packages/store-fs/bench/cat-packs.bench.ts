// cat of one chunked artifact from packs against the same artifact stored as loose chunk files, in one
// process, interleaved (loose, packed, loose, ...): what reading from packs costs over loose files.
// About 128 MB by default (BENCH_STREAM_MB), BENCH_ROUNDS rounds (default 4); each store is read by a fresh driver
// (as `aref cat` in a new process would), to /dev/null. Run: pnpm --filter @artifact-refs/store-fs bench:cat-packs
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { ArtifactStore } from "@artifact-refs/store";
import { generatedLog } from "@artifact-refs/store/testing";
import { FsDriver } from "@artifact-refs/store-fs";
import { machine } from "@artifact-refs/tooling/bench/harness";
import { looseOnly } from "../test/helpers.js";

const MB = Number(process.env.BENCH_STREAM_MB ?? 128);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "aref-cat-packs-"));
  try {
    const text = generatedLog(Math.round((MB * 1024 * 1024) / 56));
    const content = new TextEncoder().encode(text);
    const roots = { loose: join(dir, "loose"), packed: join(dir, "packed") };
    let id = "";
    for (const [name, root] of Object.entries(roots)) {
      const driver = new FsDriver({ root, fsync: false });
      const store = new ArtifactStore({ driver: name === "loose" ? looseOnly(driver) : driver });
      id = (await store.put(content, { session: "bench" })).id;
      await store.close();
    }
    const times: Record<string, number[]> = { loose: [], packed: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, root] of Object.entries(roots)) {
        const store = new ArtifactStore({ driver: new FsDriver({ root }) });
        const start = performance.now();
        await pipeline(await store.getStream(id), createWriteStream("/dev/null"));
        times[name]!.push(performance.now() - start);
        await store.close();
      }
    }
    const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
    const best = (xs: number[]) => Math.min(...xs);
    console.log(
      `\n${(content.byteLength / 1e6).toFixed(0)} MB log, ${ROUNDS} rounds; ${machine()}; load ${loadavg()[0]!.toFixed(1)}`,
    );
    console.log(`cat from loose chunks:  ${ms(times.loose!)} ms (best ${best(times.loose!).toFixed(0)})`);
    console.log(`cat from packed chunks: ${ms(times.packed!)} ms (best ${best(times.packed!).toFixed(0)})`);
    console.log(`packed ÷ loose (best): ${(best(times.packed!) / best(times.loose!)).toFixed(2)}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
