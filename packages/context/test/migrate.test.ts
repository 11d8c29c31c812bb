import { appendFileSync } from "node:fs";
import { copyFile, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ArefError, hasErrorCode } from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Externalizer, migrateTranscript, readTranscript, rehydrateTranscript, tagInjected } from "../src/index.js";
import { itWithData } from "@artifact-refs/tooling/testing/shared-data";
import { TRAJECTORY_DIR, tempDir } from "./helpers.js";

const session = "sess-mig";
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

/**
 * A driver that fails every put after the first `okPuts` blob writes. This is the one fault we
 * cannot cause for real in-process (a crash half-way through a migration), so it is simulated.
 */
class FailingAfterDriver extends MemoryDriver {
  puts = 0;
  constructor(private readonly okPuts: number) {
    super();
  }
  override async putIfAbsent(key: string, bytes: Uint8Array) {
    if (key.startsWith("blobs/") && ++this.puts > this.okPuts)
      throw new ArefError("IO_ERROR", "simulated crash during migration");
    return super.putIfAbsent(key, bytes);
  }
}

async function legacyCopy(name = "minisweagent-gemini3pro__django__django-15957.jsonl"): Promise<string> {
  const path = join(dir, "legacy.jsonl");
  await copyFile(join(TRAJECTORY_DIR, name), path);
  return path;
}

function originalObjects(text: string): unknown[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
}

describe("migrateTranscript", () => {
  itWithData(
    "trajectories",
    "migrates a legacy transcript, re-migrates as a no-op, and reads back identical after rehydration",
    async () => {
      const path = await legacyCopy();
      const original = await readFile(path, "utf8");
      const store = new ArtifactStore({ driver: new MemoryDriver() });
      const externalizer = new Externalizer({ store });
      const progress: number[] = [];
      const report = await migrateTranscript(path, {
        externalizer,
        session,
        onProgress: (done, total) => progress.push(done / total),
      });
      expect(report.changed).toBe(true);
      expect(report.migrated).toBeGreaterThan(5);
      expect(report.bytes_after).toBeLessThan(report.bytes_before - report.bytes_externalized / 2);
      expect(report.backup).toBe(`${path}.bak`);
      expect(await readFile(`${path}.bak`, "utf8")).toBe(original);
      expect(progress.at(-1)).toBe(1);
      expect(report.skipped).toEqual([]);

      const migratedText = await readFile(path, "utf8");
      const again = await migrateTranscript(path, { externalizer, session });
      expect(again.changed).toBe(false);
      expect(again.migrated).toBe(0);
      expect(again.already_referenced).toBe(report.migrated);
      expect(await readFile(path, "utf8")).toBe(migratedText);

      const back = await rehydrateTranscript(await readTranscript(path), { store });
      expect(back.errors).toEqual([]);
      expect(back.rehydrated).toBe(report.migrated);
      expect(back.raws).toEqual(originalObjects(original));
      // untouched lines keep their exact bytes
      const origLines = original.split("\n");
      const newLines = migratedText.split("\n");
      expect(newLines.length).toBe(origLines.length);
      const untouched = newLines.filter((l, i) => l === origLines[i]).length;
      expect(untouched).toBe(origLines.length - report.migrated);
      expect(await readdir(dir)).toEqual(["legacy.jsonl", "legacy.jsonl.bak"]);
    },
  );

  itWithData("trajectories", "dry run reports and changes nothing", async () => {
    const path = await legacyCopy();
    const original = await readFile(path, "utf8");
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const report = await migrateTranscript(path, { externalizer: new Externalizer({ store }), session, dryRun: true });
    expect(report.dry_run).toBe(true);
    expect(report.migrated).toBeGreaterThan(5);
    expect(report.changed).toBe(false);
    expect(await readFile(path, "utf8")).toBe(original);
    expect(await readdir(dir)).toEqual(["legacy.jsonl"]);
    expect(await store.listSessions()).toEqual([]);
  });

  itWithData(
    "trajectories",
    "an interrupted migration leaves the original intact; a rerun completes and loses nothing",
    async () => {
      const path = await legacyCopy();
      const original = await readFile(path, "utf8");
      const driver = new FailingAfterDriver(3);
      const broken = new ArtifactStore({ driver });
      await expect(
        migrateTranscript(path, { externalizer: new Externalizer({ store: broken }), session }),
      ).rejects.toThrow(/simulated crash/);
      expect(await readFile(path, "utf8")).toBe(original);
      // a stale temp file from a crash between write and rename is swept by the rerun
      await writeFile(`${path}.aref-migrate-999-deadbeef.tmp`, "partial");
      const store = new ArtifactStore({ driver: new MemoryDriver() });
      // same backing data as the first attempt's good puts: copy them over to show dedupe works too
      for await (const entry of driver.list("")) {
        const bytes = await driver.get(entry.key);
        if (bytes) await store.driver.putIfAbsent(entry.key, bytes);
      }
      const report = await migrateTranscript(path, { externalizer: new Externalizer({ store }), session });
      expect(report.changed).toBe(true);
      expect(await readdir(dir)).toEqual(["legacy.jsonl", "legacy.jsonl.bak"]);
      const back = await rehydrateTranscript(await readTranscript(path), { store });
      expect(back.errors).toEqual([]);
      expect(back.raws).toEqual(originalObjects(original));
    },
  );

  itWithData(
    "trajectories",
    "refuses to rewrite when a writer appended during the migration; a rerun completes",
    async () => {
      const path = await legacyCopy();
      const store = new ArtifactStore({ driver: new MemoryDriver() });
      const externalizer = new Externalizer({ store });
      const extra = `${JSON.stringify({ role: "user", content: "appended while migrating" })}\n`;
      let appended = false;
      const onProgress = (done: number) => {
        if (done === 3 && !appended) {
          appended = true;
          appendFileSync(path, extra);
        }
      };
      await expect(migrateTranscript(path, { externalizer, session, onProgress })).rejects.toSatisfy((e) =>
        hasErrorCode(e, "CONFLICT"),
      );
      expect((await readFile(path, "utf8")).endsWith(extra)).toBe(true);
      const report = await migrateTranscript(path, { externalizer, session });
      expect(report.changed).toBe(true);
      const { entries } = await readTranscript(path);
      expect(entries.at(-1)!.content).toBe("appended while migrating");
      expect(await readdir(dir)).toEqual(["legacy.jsonl", "legacy.jsonl.bak"]);
    },
  );

  itWithData(
    "trajectories",
    "one migration per file: a live lock holder is a CONFLICT, a dead one's lock is taken over",
    async () => {
      const path = await legacyCopy();
      const externalizer = new Externalizer({ store: new ArtifactStore({ driver: new MemoryDriver() }) });
      await writeFile(`${path}.aref-migrate.lock`, String(process.ppid));
      await expect(migrateTranscript(path, { externalizer, session })).rejects.toThrow(
        /another migration .* is running/,
      );
      await writeFile(`${path}.aref-migrate.lock`, "2147483646");
      expect((await migrateTranscript(path, { externalizer, session })).changed).toBe(true);
      expect(await readdir(dir)).toEqual(["legacy.jsonl", "legacy.jsonl.bak"]);
    },
  );

  it("keeps an over-cap payload inline and reports it", async () => {
    const path = join(dir, "big.jsonl");
    const lines = [
      { role: "user", content: "go" },
      { role: "tool", tool_name: "cat", content: `${"x".repeat(5_000)}\n` },
      { role: "tool", tool_name: "cat", content: "y".repeat(50_000) },
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const store = new ArtifactStore({ driver: new MemoryDriver(), maxBytes: 20_000 });
    const report = await migrateTranscript(path, { externalizer: new Externalizer({ store }), session });
    expect(report.migrated).toBe(1);
    expect(report.skipped).toHaveLength(1);
    expect(report.skipped[0]!.line).toBe(3);
    const back = await rehydrateTranscript(await readTranscript(path), { store });
    expect(back.raws).toEqual(lines);
  });

  it("reports bad input: invalid JSONL with a line number, a missing file", async () => {
    const path = join(dir, "bad.jsonl");
    await writeFile(path, '{"role":"user","content":"a"}\nnot json\n');
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    await expect(migrateTranscript(path, { externalizer: new Externalizer({ store }), session })).rejects.toThrow(
      /bad\.jsonl:2: invalid JSON/,
    );
    await expect(
      migrateTranscript(join(dir, "nope.jsonl"), { externalizer: new Externalizer({ store }), session }),
    ).rejects.toSatisfy((e) => hasErrorCode(e, "NOT_FOUND"));
  });

  it("never stashes injected context (no self-ingest)", async () => {
    const path = join(dir, "inj.jsonl");
    const lines = [
      { role: "tool", tool_name: "recall", content: "x".repeat(9_000), details: { injected: true } },
      { role: "tool", tool_name: "recall", content: tagInjected("y".repeat(9_000)) },
      { role: "tool", tool_name: "sh", content: "z".repeat(9_000) },
    ];
    await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const report = await migrateTranscript(path, { externalizer: new Externalizer({ store }), session });
    expect(report).toMatchObject({ migrated: 1, kept_inline: 0, tool_results: 3 });
    const { entries } = await readTranscript(path);
    expect(entries.map((e) => e.details?.artifactRef === undefined)).toEqual([true, true, false]);
  });

  it("migrates a JSON-array transcript too", async () => {
    const path = join(dir, "t.json");
    const msgs = [
      { role: "user", content: "go" },
      { role: "tool", tool_name: "sh", content: "line\n".repeat(1_000) },
    ];
    await writeFile(path, JSON.stringify(msgs));
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const report = await migrateTranscript(path, { externalizer: new Externalizer({ store }), session });
    expect(report).toMatchObject({ format: "json", migrated: 1, changed: true });
    const back = await rehydrateTranscript(await readTranscript(path), { store });
    expect(back.raws).toEqual(msgs);
  });
});
