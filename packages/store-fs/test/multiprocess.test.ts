import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHILD, assertBuilt, spawnJson, tempRoot } from "./helpers.js";

interface WriterResult {
  ok: boolean;
  value: { ids: string[]; created: number; errors: { code: string; message: string }[] };
  error?: unknown;
}

/** Every file under `dir`, relative, '/'-separated. */
async function filesUnder(dir: string, base = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...(await filesUnder(join(dir, entry.name), `${base}${entry.name}/`)));
    else out.push(`${base}${entry.name}`);
  }
  return out;
}

describe("fs store: 4 processes writing overlapping content at once", () => {
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(() => assertBuilt());
  afterEach(async () => cleanup?.());

  it("no errors, each blob stored once, exactly one creator per blob, every read verifies", async () => {
    const temp = await tempRoot();
    cleanup = temp.cleanup;
    const { root } = temp;
    const workers = 4;
    const count = 500;
    const stride = 100; // worker w writes pool items w*100 .. w*100+499: heavy overlap
    const pool = 800;
    const runs = Array.from({ length: workers }, (_, worker) =>
      // fsync off: this checks who creates each blob under contention (link/rename are atomic either way), not
      // durability. With fsync on, this test once hit its 240 s timeout right after a fresh clone's heavy writes
      // (slow fsyncs are the likely cause, not confirmed).
      spawnJson<WriterResult>(process.execPath, [
        CHILD,
        JSON.stringify({ job: "writer", root, worker, count, stride, pool, fsync: false }),
      ]),
    );
    await Promise.all(runs.map((r) => r.ready));
    for (const run of runs) run.go(); // all four start writing together
    const outcomes = await Promise.all(runs.map((r) => r.done));

    for (const { code, lines, stderr } of outcomes) {
      expect(code, stderr).toBe(0);
      expect(lines.length).toBe(1);
      expect(lines[0]!.ok, JSON.stringify(lines[0]!.error)).toBe(true);
      expect(lines[0]!.value.errors).toEqual([]);
    }
    const results = outcomes.map((o) => o.lines[0]!.value);
    const distinct = new Set(results.flatMap((r) => r.ids));
    expect(distinct.size).toBe(pool);
    // putIfAbsent lets exactly one process create each blob.
    expect(results.reduce((sum, r) => sum + r.created, 0)).toBe(pool);

    const files = await filesUnder(root);
    const blobFiles = files.filter((f) => f.startsWith("blobs/"));
    expect(blobFiles.length).toBe(pool);
    expect(new Set(blobFiles.map((f) => f.split("/").pop())).size).toBe(pool);
    expect(files.filter((f) => f.includes("/.tmp-") || f.includes("/.trash-"))).toEqual([]);
    expect(files.filter((f) => f.startsWith("meta/")).length).toBe(pool);

    const store = new ArtifactStore({ driver: new FsDriver({ root }) });
    expect((await store.stats()).blobs).toBe(pool);
    for (let w = 0; w < workers; w++) {
      const own = (await store.listReferences(`w${w}`)).length;
      expect(own).toBeGreaterThan(0);
    }
    const report = await store.verify();
    expect(report.problems).toEqual([]);
    expect(report).toMatchObject({ ok: true, blobs_checked: pool });
    for (const id of distinct) expect((await store.get(id)).byteLength).toBeGreaterThan(0); // get checks the hash
  }, 240_000); // ~2,200 puts: seconds on a quiet machine, longer on a loaded one
});
