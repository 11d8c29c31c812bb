import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gunzipSync } from "node:zlib";
import { ArtifactStore, type Driver } from "@artifact-refs/store";
import { FsDriver } from "@artifact-refs/store-fs";
import { S3Driver } from "@artifact-refs/store-s3";
import { startS3Server, type S3TestServer } from "@artifact-refs/tooling/s3/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, fixture, spawnChild } from "../src/children.js";
import { diffSnapshots, filesUnder, sha256, snapshot } from "../src/files.js";
import { rng } from "@artifact-refs/tooling/testing/rng";
import { seedFromEnv } from "../src/seed.js";
import { scale } from "../src/scale.js";
import { builtSuiteDir } from "../src/suite.js";
import { report } from "../src/summary.js";

/**
 * Crash injection: writer processes are killed with SIGKILL 0-50 ms after they are ready (S3:
 * 0-500 ms, its first request alone takes longer),
 * again and again. After each kill (a batch of kills in the full run) the store is checked
 * from the outside (its files or objects, hashed directly) and through verify and gc.
 */
const WRITER = fixture("crash-writer.mjs");
/** Over one blob's 512 KiB: about 5% of the writers' puts are chunked (chunks, then manifest, record, reference). */
const MAX_BYTES = 2 * 1024 * 1024;
/**
 * fs only: the fs driver packs a put's chunks from its 33rd new chunk on (about 2 MiB of new content),
 * which the puts above never reach. In a quarter of the rounds the writer's first put is 2.5-4 MiB (then
 * 2% of its puts), windows of one of 3 shared bases with fresh bytes spliced in (see crash-writer.mjs),
 * and the kill comes 0-300 ms after ready: kills land inside pack writes, packed chunks are deduped
 * between puts, gc sweeps unreferenced artifacts out of packs that other artifacts still use.
 */
const PACK_BYTES = 4 * 1024 * 1024;
const PACK_ROUND_DELAY_MS = 300;
const PACK_FILE = /^~packs\/p-[^/]+\.pack$/;
const SCRATCH = /^\.(tmp|trash)-/;

interface Line {
  ready?: boolean;
  acked?: string;
  /** A chunked put's manifest: gc sweeps its chunks and manifest, its id is never in `swept`. */
  manifest?: string;
  record?: string;
  session?: string;
  ref?: boolean;
  error?: { code: string; message: string };
}

interface Tally {
  kills: number;
  /** Puts acknowledged over the whole run (acked holds those of the current store). */
  ackLines: number;
  /** Writers that could not load dist/ while another build replaced it (not counted as kills). */
  startFailures: number;
  /** Checks that needed a second gc/verify pass to remove every temp file. */
  secondPasses: number;
  acked: Set<string>;
  referenced: Set<string>;
  /** Manifest id → the chunked artifact's id (acknowledged puts of the current store). */
  manifests: Map<string, string>;
  /** What happened to each acknowledged id (printed with a failure, with the seed). */
  history: Map<string, string[]>;
  /** Session records acknowledged per session (of the current store). */
  records: Map<string, Set<string>>;
  recordLines: number;
  failures: string[];
  /** Kills after which a temp/trash file was found: the kill landed inside a write. */
  midWrite: number;
  /** Pack files found at the checks (summed over checks), and temp packs among the scratch files. */
  packsSeen: number;
  tempPacksSeen: number;
  problemsRepaired: Record<string, number>;
  tempFilesCleaned: number;
  checks: number;
}

const newTally = (): Tally => ({
  kills: 0,
  ackLines: 0,
  startFailures: 0,
  secondPasses: 0,
  acked: new Set(),
  referenced: new Set(),
  manifests: new Map(),
  history: new Map(),
  records: new Map(),
  recordLines: 0,
  failures: [],
  midWrite: 0,
  packsSeen: 0,
  tempPacksSeen: 0,
  problemsRepaired: {},
  tempFilesCleaned: 0,
  checks: 0,
});

function note(tally: Tally, id: string, event: string): void {
  let events = tally.history.get(id);
  if (!events) tally.history.set(id, (events = []));
  events.push(event);
}

/** Runs `parallel` writers, kills each 0-50 ms after it is ready, records what they acknowledged. */
async function killRound(
  tally: Tally,
  parallel: number,
  command: (slot: number) => Record<string, unknown>,
  random: ReturnType<typeof rng>,
  maxDelayMs: number,
  env?: NodeJS.ProcessEnv,
): Promise<void> {
  await Promise.all(
    Array.from({ length: parallel }, async (_, slot) => {
      const cmd = command(slot);
      const child = spawnChild<Line>(WRITER, cmd, env ? { env } : {});
      try {
        await child.ready;
      } catch (error) {
        const message = (error as Error).message;
        // Not the store's doing: another build on this machine was replacing dist/ (tsup cleans it).
        if (message.includes("ERR_MODULE_NOT_FOUND")) tally.startFailures++;
        else tally.failures.push(`writer did not start: ${message}`);
        return;
      }
      await sleep(random.int(((cmd.maxDelayMs as number | undefined) ?? maxDelayMs) + 1));
      child.process.kill("SIGKILL");
      const done = await child.done;
      if (done.signal !== "SIGKILL")
        tally.failures.push(`writer ended by itself (${done.code}): ${done.stderr.slice(0, 500)}`);
      else tally.kills++;
      for (const line of done.lines) {
        if (line.acked) {
          tally.acked.add(line.acked);
          tally.ackLines++;
          if (line.ref) tally.referenced.add(line.acked);
          if (line.manifest) tally.manifests.set(line.manifest, line.acked);
          note(
            tally,
            line.acked,
            `kill ${tally.kills} (slot ${slot}): put acknowledged ${line.ref ? "with" : "without"} a reference${line.manifest ? `, chunked (manifest ${line.manifest.slice(0, 12)})` : ""}`,
          );
        }
        if (line.record && line.session) {
          let ids = tally.records.get(line.session);
          if (!ids) tally.records.set(line.session, (ids = new Set()));
          ids.add(line.record);
          tally.recordLines++;
        }
        if (line.error) tally.failures.push(`put failed in a writer: ${line.error.code} ${line.error.message}`);
      }
    }),
  );
}

/** verify(repair) then verify again: every problem repaired, none left. Optionally gc(grace 0) first. */
async function maintain(store: ArtifactStore, tally: Tally, withGc: boolean): Promise<void> {
  if (withGc) {
    const gc = await store.gc({ graceMs: 0 });
    tally.tempFilesCleaned += gc.temp_files_removed;
    for (const blob of gc.swept) {
      // A chunked artifact's parts are swept, never its id (its record goes with them).
      const id = tally.manifests.get(blob) ?? blob;
      if (tally.referenced.has(id)) tally.failures.push(`gc swept referenced blob ${blob} (artifact ${id})`);
      if (tally.acked.delete(id))
        note(tally, id, `check ${tally.checks}: gc swept ${blob === id ? "it" : "its manifest"}`);
    }
  }
  const repaired = await store.verify({ repair: true });
  for (const p of repaired.problems) {
    if (!p.repaired) tally.failures.push(`verify could not repair ${p.kind} ${p.key}: ${p.message}`);
    else tally.problemsRepaired[p.kind] = (tally.problemsRepaired[p.kind] ?? 0) + 1;
    if (p.kind === "temp_file") tally.tempFilesCleaned++;
  }
  const again = await store.verify();
  for (const p of again.problems) tally.failures.push(`problem left after repair: ${p.kind} ${p.key}: ${p.message}`);
}

/** Every acknowledged put reads back (get checks the hash). */
async function checkAcked(store: ArtifactStore, tally: Tally): Promise<void> {
  for (const id of tally.acked) {
    try {
      await store.get(id);
    } catch (error) {
      tally.failures.push(
        `acknowledged put ${id} unreadable after a kill: ${(error as Error).message}; its history: ${(tally.history.get(id) ?? []).join("; ")}`,
      );
    }
  }
}

/** Every session's records list without a skipped (partial or corrupt) one, and every acknowledged record is listed. */
async function checkRecords(store: ArtifactStore, tally: Tally): Promise<void> {
  for (const session of await store.records.sessions()) {
    const listed = new Set<string>();
    let before: string | undefined;
    do {
      const page = await store.records.page(session, "stress", { limit: 1_000, ...(before ? { before } : {}) });
      for (const s of page.skipped)
        tally.failures.push(`a killed writer left a record that listings skip: ${s.key}: ${s.message}`);
      for (const r of page.records) listed.add(r.id);
      before = page.before;
    } while (before !== undefined);
    for (const id of tally.records.get(session) ?? [])
      if (!listed.has(id)) tally.failures.push(`acknowledged record ${session}/${id} is not listed after a kill`);
  }
  for (const session of tally.records.keys()) {
    if (!(await store.records.sessions()).includes(session))
      tally.failures.push(`session ${session} with acknowledged records is not listed`);
  }
}

describe("crash injection: fs store", () => {
  const parentDir = builtSuiteDir(["schema", "store", "store-fs"], "aref-crash-fs-");

  it("after every SIGKILL: blobs hash to their ids, acked puts read back, verify repairs all, gc/verify clean temp files, nothing outside the root touched", async () => {
    const parent = parentDir();
    const seed = seedFromEnv();
    const random = rng(seed);
    const canary = join(parent, "canary");
    await mkdir(canary);
    await writeFile(join(canary, "keep.txt"), "canary: must never change\n");
    const outside = () => snapshot(parent, (rel) => rel === "stores" || rel.startsWith("stores/"));
    const before = await outside();
    const kills = scale(30, 1_000);
    const parallel = scale(1, 2);
    const batch = scale(3, 20);
    // The full run starts a fresh store every 100 kills, so that each check (which hashes
    // every blob) stays fast; the short run uses one.
    const killsPerStore = scale(30, 100);
    const tally = newTally();
    let root = "";
    let store!: ArtifactStore;
    let blobs = 0;
    let storeStart = 0;
    let justChecked = false;
    let round = 0;
    const started = Date.now();
    while (tally.kills < kills && tally.failures.length < 20) {
      if (root === "" || (justChecked && tally.kills - storeStart >= killsPerStore)) {
        if (root !== "") blobs += (await store.stats()).blobs;
        storeStart = tally.kills;
        root = join(parent, "stores", String(tally.kills));
        store = new ArtifactStore({ driver: new FsDriver({ root }), maxBytes: PACK_BYTES, gcGraceMs: 0 });
        tally.acked.clear();
        tally.referenced.clear();
        tally.manifests.clear();
        tally.history.clear();
        tally.records.clear();
      }
      await killRound(
        tally,
        Math.min(parallel, kills - tally.kills),
        (slot) => {
          const bigFirst = random.int(4) === 0;
          return {
            driver: "fs",
            root,
            seed: random.int(2 ** 31),
            slot,
            gzip: random.int(4) === 0,
            maxBytes: MAX_BYTES,
            packs: { base: 1 + random.int(3), first: bigFirst ? 1 : 0, later: 0.02 },
            ...(bigFirst ? { maxDelayMs: PACK_ROUND_DELAY_MS } : {}),
          };
        },
        random,
        50,
      );
      round++;
      justChecked = false;
      if (round % batch !== 0 && tally.kills < kills) continue;
      tally.checks++;
      justChecked = true;
      // 1. The files themselves: every blob file hashes to its name, every record parses.
      const files = await filesUnder(root);
      let scratch = 0;
      for (const file of files) {
        const name = file.split("/").pop()!;
        if (SCRATCH.test(name)) {
          scratch++;
          if (file.startsWith("~packs/")) tally.tempPacksSeen++;
          continue;
        }
        if (PACK_FILE.test(file)) tally.packsSeen++;
        if (file.startsWith("blobs/")) {
          const m = /^blobs\/sha256\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})(\.gz)?$/.exec(file);
          if (!m || !m[3]!.startsWith(m[1]! + m[2]!)) {
            tally.failures.push(`unexpected file in blobs/: ${file}`);
            continue;
          }
          const raw = await readFile(join(root, file));
          let bytes: Uint8Array;
          try {
            bytes = m[4] ? gunzipSync(raw) : raw;
          } catch {
            tally.failures.push(`partial gzip blob visible under its id: ${file}`);
            continue;
          }
          if (sha256(bytes) !== m[3])
            tally.failures.push(`partial or corrupt blob visible under its id: ${file} (${raw.byteLength} bytes)`);
        } else if (file.endsWith(".json")) {
          try {
            JSON.parse(await readFile(join(root, file), "utf8"));
          } catch {
            tally.failures.push(`partial JSON visible: ${file}`);
          }
        }
      }
      if (scratch > 0) tally.midWrite++;
      // 2. Acknowledged puts and session records survived; no record breaks a listing.
      await checkAcked(store, tally);
      await checkRecords(store, tally);
      // 3. gc or verify (grace 0) must remove the temp files once they are past the driver's
      // 1 s floor (it looks at ctime too, so they cannot be aged artificially: wait).
      if (scratch > 0) await sleep(1_100);
      await maintain(store, tally, tally.checks % 2 === 0);
      let left = (await filesUnder(root)).filter((f) => SCRATCH.test(f.split("/").pop()!));
      if (left.length > 0) {
        // A temp file killed between link and unlink shares its inode with the published
        // file; gc's conditional delete of that file (rename, unlink) just renewed the inode's
        // ctime, so the sweep rightly took it for a write in progress. The next pass removes it.
        tally.secondPasses++;
        await sleep(1_100);
        await maintain(store, tally, true);
        left = (await filesUnder(root)).filter((f) => SCRATCH.test(f.split("/").pop()!));
      }
      if (left.length > 0) tally.failures.push(`temp files left after two gc/verify passes: ${left.join(", ")}`);
      // 4. Nothing outside the store root.
      const diff = diffSnapshots(before, await outside());
      if (diff.length > 0) tally.failures.push(`files outside the store root changed: ${diff.join(", ")}`);
    }
    blobs += (await store.stats()).blobs;
    report(
      "crash(fs)",
      `${tally.kills} kills, ${tally.checks} checks, ${tally.failures.length} failures (${tally.ackLines} acked puts all readable, ${tally.recordLines} acked session records all listed, ${blobs} blobs, ${tally.midWrite} checks found a write cut mid-way, ${tally.packsSeen} pack files and ${tally.tempPacksSeen} temp packs seen at checks, repaired ${JSON.stringify(tally.problemsRepaired)}, ${tally.secondPasses} checks needed a second gc/verify pass for temp files, ${tally.startFailures} writers could not load dist/ during another build, seed ${seed})`,
      {
        kills: tally.kills,
        checks: tally.checks,
        failures: tally.failures.length,
        failure_samples: tally.failures.slice(0, 20),
        second_passes: tally.secondPasses,
        start_failures: tally.startFailures,
        acked: tally.ackLines,
        records: tally.recordLines,
        blobs,
        mid_write: tally.midWrite,
        packs_seen: tally.packsSeen,
        temp_packs_seen: tally.tempPacksSeen,
        repaired: tally.problemsRepaired,
        temp_cleaned: tally.tempFilesCleaned,
        seconds: Math.round((Date.now() - started) / 1000),
        seed,
      },
    );
    expect(tally.failures, `seed ${seed} (replay: AREF_STRESS_SEED=${seed})`).toEqual([]);
    expect(tally.kills).toBe(kills);
    expect(tally.acked.size).toBeGreaterThan(0);
    expect(tally.recordLines).toBeGreaterThan(0);
  });
});

describe("crash injection: S3 driver through the local server", () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    assertBuilt(["schema", "store", "store-s3"]);
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.stop();
  });

  it("after every SIGKILL: objects hash to their ids, acked puts read back, verify repairs all", async () => {
    const seed = seedFromEnv();
    const random = rng(seed);
    const bucket = s3.createBucket();
    const direct = (): Driver =>
      new S3Driver({
        bucket,
        endpoint: s3.endpoint,
        forcePathStyle: true,
        region: "us-east-1",
        conditionalWrites: "off",
        retryBaseDelayMs: 5,
        clientConfig: { credentials: s3.credentials },
      });
    const driver = direct();
    const store = new ArtifactStore({ driver, maxBytes: MAX_BYTES, gcGraceMs: 0, gcGraceFloorMs: 0 });
    const kills = scale(5, 100);
    const batch = scale(1, 10);
    const tally = newTally();
    const env = { ...process.env, ...s3.env };
    const started = Date.now();
    let round = 0;
    while (tally.kills < kills && tally.failures.length < 20) {
      await killRound(
        tally,
        1,
        (slot) => ({
          driver: "s3",
          bucket,
          endpoint: s3.endpoint,
          seed: random.int(2 ** 31),
          slot,
          maxBytes: MAX_BYTES,
        }),
        random,
        500,
        env,
      );
      round++;
      if (round % batch !== 0 && tally.kills < kills) continue;
      tally.checks++;
      for await (const entry of driver.list("blobs/")) {
        const m = /^blobs\/sha256\/[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{64})$/.exec(entry.key);
        if (!m) {
          tally.failures.push(`unexpected object: ${entry.key}`);
          continue;
        }
        const bytes = await driver.get(entry.key);
        if (bytes !== undefined && sha256(bytes) !== m[1])
          tally.failures.push(
            `partial or corrupt object visible under its id: ${entry.key} (${bytes.byteLength} bytes)`,
          );
      }
      await checkAcked(store, tally);
      await checkRecords(store, tally);
      await maintain(store, tally, tally.checks % 2 === 0);
    }
    report(
      "crash(s3)",
      `${tally.kills} kills, ${tally.checks} checks, ${tally.failures.length} failures (${tally.ackLines} acked puts all readable, ${tally.recordLines} acked session records all listed, repaired ${JSON.stringify(tally.problemsRepaired)}, ${tally.startFailures} writers could not load dist/ during another build, seed ${seed})`,
      {
        kills: tally.kills,
        checks: tally.checks,
        failures: tally.failures.length,
        failure_samples: tally.failures.slice(0, 20),
        start_failures: tally.startFailures,
        acked: tally.ackLines,
        records: tally.recordLines,
        repaired: tally.problemsRepaired,
        seconds: Math.round((Date.now() - started) / 1000),
        seed,
      },
    );
    expect(tally.failures, `seed ${seed} (replay: AREF_STRESS_SEED=${seed})`).toEqual([]);
    expect(tally.kills).toBe(kills);
  });
});
