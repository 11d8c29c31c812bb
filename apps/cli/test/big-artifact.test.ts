// Acceptance of chunked artifacts through the built binary (`node dist/bin.js`): a 64 MB,
// 1M-line log is stashed (peak RSS measured by /usr/bin/time), restored byte-exact by `cat`,
// and read by `fetch --tail` and `fetch --grep` reading a bounded number of chunks (counted on
// the same store directory through a counting driver).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { applySelectorToChunks } from "@artifact-refs/resolve";
import { ArtifactStore, type Driver } from "@artifact-refs/store";
import { openDriver } from "@artifact-refs/store-spec";
import { describe, expect, it } from "vitest";
import { BIN, tempDir, tempStore } from "./helpers.js";

const LINES = 1_000_000;

async function writeLog(path: string): Promise<string> {
  const hash = createHash("sha256");
  const out = createWriteStream(path);
  let x = 12345;
  let batch: string[] = [];
  for (let i = 1; i <= LINES; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const level = i === LINES - 3 ? "FATAL" : i % 1000 === 0 ? "WARN" : "INFO";
    batch.push(
      `2026-11-23T10:${String(i % 60).padStart(2, "0")}:00Z ${level} worker-${x % 16} request ${i} took ${x % 997}ms id=${x.toString(16)}\n`,
    );
    if (batch.length === 10_000) {
      const text = batch.join("");
      hash.update(text);
      if (!out.write(text)) await once(out, "drain");
      batch = [];
    }
  }
  out.end();
  await once(out, "finish");
  return hash.digest("hex");
}

/** Runs the built CLI under /usr/bin/time -v; stdout is hashed as it arrives (never held whole). */
async function spawnTimed(
  args: string[],
): Promise<{ code: number; sha256: string; out: string; err: string; peakRssKb: number }> {
  const child = spawn("/usr/bin/time", ["-v", process.execPath, BIN, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, AREF_NO_UPDATE_CHECK: "1" },
  });
  const hash = createHash("sha256");
  let head = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    hash.update(d);
    if (head.length < 100_000) head += d.toString("utf8");
  });
  child.stderr.on("data", (d: Buffer) => (err += d.toString("utf8")));
  const [code] = (await once(child, "close")) as [number];
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
  return { code, sha256: hash.digest("hex"), out: head, err, peakRssKb: peak ? Number(peak[1]) : Number.NaN };
}

function countingDriver(driver: Driver, gets: string[]): Driver {
  return {
    kind: driver.kind,
    location: driver.location,
    putIfAbsent: (k, d) => driver.putIfAbsent(k, d),
    put: (k, d) => driver.put(k, d),
    get: (k) => {
      gets.push(k);
      return driver.get(k);
    },
    head: (k) => driver.head(k),
    delete: (k, o) => driver.delete(k, o),
    list: (p) => driver.list(p),
    uri: (k) => driver.uri(k),
  };
}

describe("a 64 MB, 1M-line log through the built CLI", () => {
  it("stashes with peak RSS <= 256 MB, cats byte-exact, and fetches the tail and a late grep from a bounded number of chunks", {
    timeout: 300_000,
  }, async () => {
    expect(existsSync(BIN), `${BIN} is missing: build the CLI first`).toBe(true);
    const file = join(tempDir("aref-big-"), "big.log");
    const sha = await writeLog(file);
    const store = tempStore();

    const stash = await spawnTimed(["stash", file, "--store", store, "--type", "log", "--json"]);
    expect(stash.code, stash.err).toBe(0);
    const receipt = JSON.parse(stash.out) as { short_ref: string; artifact_id: string; bytes: number };
    expect(receipt.artifact_id).toBe(sha);
    expect(receipt.bytes).toBeGreaterThan(64_000_000);
    expect(stash.peakRssKb).toBeLessThanOrEqual(256 * 1024);

    const cat = await spawnTimed(["cat", receipt.short_ref, "--store", store]);
    expect(cat.code, cat.err).toBe(0);
    expect(cat.sha256).toBe(sha);
    expect(cat.peakRssKb).toBeLessThanOrEqual(256 * 1024);

    const tail = await spawnTimed(["fetch", receipt.short_ref, "--tail", "5", "--store", store]);
    expect(tail.code, tail.err).toBe(0);
    const lines = tail.out.trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(new RegExp(` request ${LINES} took `));
    expect(lines.filter((l) => / request \d+ took /.test(l))).toHaveLength(5);

    const grep = await spawnTimed(["fetch", receipt.short_ref, "--grep", "FATAL", "--store", store]);
    expect(grep.code, grep.err).toBe(0);
    expect(grep.out).toMatch(new RegExp(`^${LINES - 3}:.* FATAL .* request ${LINES - 3} took `));

    // The same reads in-process over the same directory, counting what the driver is asked for.
    const gets: string[] = [];
    const counted = new ArtifactStore({ driver: countingDriver(await openDriver(store), gets) });
    const chunked = (await counted.chunks(receipt.short_ref))!;
    const chunkCount = chunked.chunks.length;
    expect(chunkCount).toBeGreaterThan(500);
    gets.length = 0;
    const tailSel = await applySelectorToChunks(chunked, { mode: "headtail", tail: 5 });
    expect(tailSel.text).toContain(`request ${LINES} took`);
    expect(gets.length).toBeLessThanOrEqual(2); // the last chunk (and the one before when the lines straddle it)
    gets.length = 0;
    const grepSel = await applySelectorToChunks(
      chunked,
      { mode: "grep", pattern: "FATAL" },
      { regexTimeLimitMs: 60_000 },
    );
    expect(grepSel.stats?.matches).toBe(1);
    expect(gets.length).toBeLessThanOrEqual(chunkCount + 2); // each chunk once, plus the shown line's chunk
    await counted.close();
  });
});
