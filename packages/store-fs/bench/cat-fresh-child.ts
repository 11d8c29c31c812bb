// One cat in this fresh process (as `aref cat` runs), for cat-fresh.bench.ts: argv = case, checkout root,
// bench dir, artifact id. "aref" imports the store and fs driver from the checkout's sources (so an
// older checkout can be measured against this one); "cacache" reads the same file with cacache.
// Prints one JSON line: wall and CPU (user, system: all threads) of the cat alone, in ms.
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";

const [kind, checkout, dir, id] = process.argv.slice(2) as [string, string, string, string];
const out = join(dir, "out");
let cat: () => Promise<void>;
if (kind === "cacache") {
  const { default: cacache } = await import("cacache");
  cat = () => pipeline(cacache.get.stream(join(dir, "cacache"), "big"), createWriteStream(out));
} else {
  const load = (pkg: string) => import(pathToFileURL(join(checkout, "packages", pkg, "src", "index.ts")).href);
  const { ArtifactStore } = await load("store");
  const { FsDriver } = await load("store-fs");
  cat = async () => {
    const store = new ArtifactStore({ driver: new FsDriver({ root: join(dir, "store"), fsync: false }) });
    await pipeline(await store.getStream(id), createWriteStream(out));
    await store.close();
  };
}
const start = performance.now();
const cpu = process.cpuUsage();
await cat();
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ wall: performance.now() - start, user: used.user / 1000, system: used.system / 1000 }));
