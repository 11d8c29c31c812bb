import { createCipheriv, createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ArtifactStore } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { describe, expect, it } from "vitest";
import { fixture, spawnChild } from "../src/children.js";
import { filesUnder, sha256 } from "../src/files.js";
import { scale } from "../src/scale.js";
import { seedFromEnv } from "../src/seed.js";
import { builtSuiteDir } from "../src/suite.js";
import { report } from "../src/summary.js";

/**
 * 4 writer processes put overlapping content with session references while a 5th runs gc
 * (grace 0) in a loop. Afterwards: no errors, every referenced artifact reads back and
 * verifies, each blob is stored exactly once, nothing referenced is missing.
 */
const WORKER = fixture("conc-worker.mjs");

interface Outcome<T> {
  ready?: boolean;
  ok?: boolean;
  value?: T;
  error?: { code: string; message: string };
}
interface WriterValue {
  referenced: string[];
  created: number;
  puts: number;
  errors: { code: string; message: string }[];
}
interface GcValue {
  runs: number;
  swept: string[];
  errors: { code: string; message: string }[];
}

describe("concurrency: 4 writer processes and a gc process on one fs store", () => {
  const parent = builtSuiteDir(["schema", "store", "store-fs"], "aref-conc-");

  it("0 errors, every referenced artifact verifies, each blob stored once, gc sweeps only garbage", async () => {
    const root = join(parent(), "store");
    const workers = 4;
    const count = scale(500, 10_000);
    const pool = scale(800, 12_000);
    const stride = pool / 8; // worker w starts at w*stride: heavy overlap between workers
    const started = Date.now();
    const writers = Array.from({ length: workers }, (_, worker) =>
      spawnChild<Outcome<WriterValue>>(WORKER, { job: "writer", root, worker, count, stride, pool }),
    );
    const collector = spawnChild<Outcome<GcValue>>(WORKER, { job: "gc", root });
    await Promise.all([...writers, collector].map((c) => c.ready));
    for (const c of [collector, ...writers]) c.send("go\n");
    const written = await Promise.all(writers.map((w) => w.done));
    collector.send("stop\n");
    const collected = await collector.done;

    const failures: string[] = [];
    const outcomeOf = <T>(
      done: { code: number | null; stderr: string; lines: Outcome<T>[] },
      who: string,
    ): T | undefined => {
      const last = done.lines[done.lines.length - 1];
      if (done.code !== 0 || !last?.ok || last.value === undefined) {
        failures.push(`${who} failed (exit ${done.code}): ${JSON.stringify(last?.error)} ${done.stderr.slice(0, 500)}`);
        return undefined;
      }
      return last.value;
    };
    const values = written.map((d, i) => outcomeOf(d, `writer ${i}`));
    const gcValue = outcomeOf(collected, "gc");
    for (const v of values) for (const e of v?.errors ?? []) failures.push(`put error: ${e.code} ${e.message}`);
    for (const e of gcValue?.errors ?? []) failures.push(`gc error: ${e.code} ${e.message}`);

    const referenced = new Set(values.flatMap((v) => v?.referenced ?? []));
    const puts = values.reduce((s, v) => s + (v?.puts ?? 0), 0);
    const created = values.reduce((s, v) => s + (v?.created ?? 0), 0);
    const store = new ArtifactStore({ driver: new FsDriver({ root }) });

    // Every referenced artifact reads back (get checks the hash).
    for (const id of referenced) {
      try {
        await store.get(id);
      } catch (error) {
        failures.push(`referenced ${id} unreadable: ${(error as Error).message}`);
      }
    }
    const verify = await store.verify();
    for (const p of verify.problems) failures.push(`verify: ${p.kind} ${p.key}: ${p.message}`);
    // A last gc (grace 0, nobody writing) leaves exactly the referenced blobs, each once.
    const final = await store.gc({ graceMs: 0 });
    for (const id of final.swept) if (referenced.has(id)) failures.push(`final gc swept referenced ${id}`);
    const blobFiles = (await filesUnder(join(root, "blobs"))).filter((f) => !f.split("/").pop()!.startsWith("."));
    const names = blobFiles.map((f) => f.split("/").pop()!);
    for (const f of blobFiles)
      if (sha256(await readFile(join(root, "blobs", f))) !== f.split("/").pop())
        failures.push(`blob ${f} does not hash to its name`);
    const sweptReferenced = (gcValue?.swept ?? []).filter((id) => referenced.has(id)).length;
    report(
      "concurrency",
      `${workers} processes × ${count} puts (+ garbage, ${puts} puts in all) with a gc loop (${gcValue?.runs ?? 0} gc runs, ${gcValue?.swept.length ?? 0} blobs swept): ${failures.length} failures, ${referenced.size} referenced blobs stored once each`,
      {
        failure_samples: failures.slice(0, 20),
        workers,
        count,
        puts,
        created,
        gc_runs: gcValue?.runs ?? 0,
        gc_swept: gcValue?.swept.length ?? 0,
        gc_swept_then_restored: sweptReferenced,
        referenced: referenced.size,
        blob_files: blobFiles.length,
        failures: failures.length,
        seconds: Math.round((Date.now() - started) / 1000),
      },
    );
    expect(failures).toEqual([]);
    expect(referenced.size).toBe(pool);
    expect(blobFiles.length).toBe(referenced.size);
    expect(new Set(names)).toEqual(referenced);
    expect((await store.stats()).blobs).toBe(referenced.size);
    expect(gcValue!.runs).toBeGreaterThan(0);
  });

  it("chunked puts of overlapping content, 4 writers at once with a gc loop: every live artifact whole, gc keeps every chunk they need", async () => {
    const root = join(parent(), "chunked-store");
    const store = new ArtifactStore({ driver: new FsDriver({ root, fsync: false }) });
    // A 2 MB log; each writer stores versions of it with a few lines changed (most chunks shared
    // between writers and versions), and drops every third version again (garbage for gc).
    const base: string[] = [];
    for (let i = 0, n = 0; n < 2 * 1024 * 1024; i++) {
      const line = `2026-11-23T10:00:${String(i % 60).padStart(2, "0")}Z INFO worker-${i % 16} request ${i * 7919} took ${(i * 13) % 997}ms\n`;
      base.push(line);
      n += line.length;
    }
    const versions = scale(6, 30);
    // Writer 0 also wraps each version in segments of its own series (2.25 MiB each,
    // pseudo-random from the seed): segment v+1 before the log, segment v after it. Each such put
    // has over 32 new chunks (segment v+1, then the changed lines), so the fs driver writes the
    // last of segment v+1's chunks and the changed lines' into a pack; version v+1 dedupes the
    // segment. A dropped version's pack is then partly dead (its changed lines) and partly live
    // (segment v+1, in version v+1); the last version's, when dropped, is wholly dead.
    const seed = seedFromEnv();
    const SEGMENT = 2.25 * 1024 * 1024;
    const segment = (w: number, k: number): Buffer => {
      const key = createHash("sha256").update(`${seed}/${w}/${k}`).digest();
      const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
      return Buffer.concat([cipher.update(Buffer.alloc(SEGMENT)), cipher.final()]);
    };
    const tailed = 1;
    const live = new Map<string, string>(); // id -> session
    const dropped = new Set<string>();
    const failures: string[] = [];
    let writing = true;
    let gcRuns = 0;
    const gcLoop = (async () => {
      while (writing) {
        // The default grace: chunks of a put still in flight are younger than it.
        await store.gc().catch((e: Error) => failures.push(`gc: ${e.message}`));
        gcRuns++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let v = 0; v < versions; v++) {
          const lines = [...base];
          for (let k = 0; k < 3; k++)
            lines[((w * 7 + v * 13 + k * 101) * 977) % lines.length] = `CHANGED w${w} v${v} k${k}\n`;
          const session = `w${w}-v${v}`;
          const [head, tail] = w < tailed ? [[segment(w, v + 1)], [segment(w, v)]] : [[], []];
          try {
            const put = await store.putStream(
              (async function* () {
                yield* head;
                for (let i = 0; i < lines.length; i += 4096) yield lines.slice(i, i + 4096).join("");
                yield* tail;
              })(),
              { session },
            );
            if (put.id !== sha256(Buffer.concat([...head, Buffer.from(lines.join("")), ...tail])))
              failures.push(`put ${session}: wrong id`);
            if (v % 3 === 2) {
              await store.cleanupSession(session);
              dropped.add(put.id);
            } else live.set(put.id, session);
          } catch (error) {
            failures.push(`put ${session}: ${(error as Error).message}`);
          }
        }
      }),
    );
    writing = false;
    await gcLoop;
    for (const id of live.keys()) dropped.delete(id); // the same content stored again by another writer

    // A last gc, grace 0 and nobody writing: what live artifacts need stays, the dropped versions' own chunks go.
    const before = (await filesUnder(join(root, "blobs"))).length;
    const final = await store.gc({ graceMs: 0 });
    for (const [id, session] of live) {
      try {
        const bytes = await store.get(id, { session });
        if (sha256(Buffer.from(bytes)) !== id) failures.push(`live ${id} read back different bytes`);
      } catch (error) {
        failures.push(`live ${id} unreadable after gc: ${(error as Error).message}`);
      }
    }
    for (const p of (await store.verify()).problems) failures.push(`verify: ${p.kind} ${p.key}: ${p.message}`);
    const after = (await filesUnder(join(root, "blobs"))).length;
    const packs = (await filesUnder(join(root, "~packs"))).filter((f) => f.endsWith(".pack")).length;
    report(
      "concurrency-chunked",
      `4 writers × ${versions} chunked versions of a 2 MB log (writer 0 wraps its versions in 4.5 MiB more, packed) with a gc loop (${gcRuns} runs): ${live.size} live, ${dropped.size} dropped; final gc swept ${final.swept.length} blobs (${before} loose files → ${after}, ${packs} packs left); ${failures.length} failures, seed ${seed}`,
      {
        versions,
        seed,
        packs,
        gc_runs: gcRuns,
        live: live.size,
        dropped: dropped.size,
        swept: final.swept.length,
        failures: failures.slice(0, 20),
      },
    );
    expect(failures, `seed ${seed} (replay: AREF_STRESS_SEED=${seed})`).toEqual([]);
    expect(packs).toBeGreaterThan(0);
    expect(live.size).toBeGreaterThan(0);
    expect(dropped.size).toBeGreaterThan(0);
    expect(final.swept.length).toBeGreaterThan(0); // the dropped versions' own chunks and manifests
    expect(after).toBeLessThan(before);
  }, 600_000);
});
