// Run: node --conditions=@artifact-refs/source --import tsx packages/store-fs/examples/quickstart.ts [store-dir]
import { mkdtemp, readdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";

const root = process.argv[2] ?? join(await mkdtemp(join(tmpdir(), "aref-example-")), "store");
const store = new ArtifactStore({ driver: new FsDriver({ root, gzip: true }) });

// Stash a large tool output for a session; the prompt keeps only the short ref.
const log = Array.from({ length: 2_000 }, (_, i) => `line ${i}: ${i % 97 === 0 ? "ERROR disk full" : "ok"}`).join("\n");
const put = await store.put(log, { session: "demo", type: "log", label: "build.log" });
console.log(`stored ${put.record.size_bytes} bytes as ${put.shortRef}`);

// What is on disk: the blob (gzip-compressed), its metadata apart, the session's reference.
const walk = async (dir: string): Promise<string[]> =>
  (
    await Promise.all(
      (
        await readdir(dir, { withFileTypes: true })
      ).map(async (e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])),
    )
  ).flat();
for (const file of (await walk(root)).sort()) {
  const info = await stat(file);
  console.log(`  ${(info.mode & 0o777).toString(8)} ${String(info.size).padStart(6)}  ${relative(root, file)}`);
}

// Every read is integrity-checked, and another process (here: another driver) sees the same store.
const other = new ArtifactStore({ driver: new FsDriver({ root }) });
console.log(
  `read back through a second driver, identical: ${(await other.getText(put.shortRef, { session: "demo" })) === log}`,
);
console.log("verify:", JSON.stringify(await store.verify()));
