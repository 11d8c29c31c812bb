import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { readTranscript, rehydrateTranscript } from "@artifact-refs/context";
import { openStore, parseStoreSpec } from "@artifact-refs/store-spec";
import { itWithData, sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { sessionFromPath } from "../src/commands/migrate.js";

const TRAJECTORIES = sharedDataPath("trajectories");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), "aref-migrate-cli-"));
  dirs.push(d);
  return d;
}

class Capture {
  chunks: Buffer[] = [];
  isTTY = false;
  columns = 100;
  write(chunk: string | Uint8Array, cb?: (e?: Error | null) => void): boolean {
    this.chunks.push(Buffer.from(chunk));
    cb?.();
    return true;
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

async function aref(args: string[], cwd: string, stderrTTY = false) {
  const stdout = new Capture();
  const stderr = new Capture();
  stderr.isTTY = stderrTTY;
  const stdin = Object.assign(Readable.from([]), { isTTY: true });
  const code = await main(args, { stdout, stderr, stdin, env: { PATH: process.env.PATH, HOME: cwd }, cwd });
  return { code, out: stdout.text, err: stderr.text };
}

describe("aref migrate", () => {
  itWithData(
    "trajectories",
    "dry-runs, migrates with a backup, re-migrates as a no-op, and the transcript rehydrates to the original",
    async () => {
      const dir = temp();
      const file = join(dir, "s1.jsonl");
      copyFileSync(join(TRAJECTORIES, "minisweagent-gemini3pro__astropy__astropy-14369.jsonl"), file);
      const original = readFileSync(file, "utf8");
      const store = join(dir, "store");

      const dry = await aref(["--store", store, "migrate", "s1.jsonl", "--dry-run"], dir);
      expect(dry.code).toBe(0);
      expect(dry.out).toMatch(/dry run, nothing written\): s1\.jsonl: would move \d+ of 24 tool results/);
      expect(readFileSync(file, "utf8")).toBe(original);
      expect(existsSync(`${file}.bak`)).toBe(false);

      const run = await aref(["--store", store, "--json", "migrate", "s1.jsonl"], dir);
      expect(run.code).toBe(0);
      const receipt = JSON.parse(run.out);
      expect(receipt).toMatchObject({
        schema: "artifact-refs.migrate.v1",
        session: "s1",
        changed: true,
        backup: `${file}.bak`,
      });
      expect(receipt.migrated).toBeGreaterThan(3);
      expect(readFileSync(`${file}.bak`, "utf8")).toBe(original);

      const again = await aref(["--store", store, "migrate", "s1.jsonl"], dir);
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/nothing to do/);

      const opened = await openStore(parseStoreSpec(store, dir));
      const back = await rehydrateTranscript(await readTranscript(file), { store: opened });
      expect(back.errors).toEqual([]);
      expect(back.raws).toEqual(
        original
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      );
      await opened.close();
    },
  );

  it("reports bad input with a line number, an unknown format and a bad session", async () => {
    const dir = temp();
    const bad = join(dir, "bad.jsonl");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(bad, '{"role":"user","content":"x"}\n{broken\n');
    const r = await aref(["--store", join(dir, "store"), "migrate", "bad.jsonl"], dir);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/bad\.jsonl:2: invalid JSON/);
    const f = await aref(["--store", join(dir, "store"), "migrate", "bad.jsonl", "--format", "yaml"], dir);
    expect(f.code).not.toBe(0);
    expect(f.err).toMatch(/unknown transcript format "yaml"/);
    const s = await aref(["--store", join(dir, "store"), "migrate", "bad.jsonl", "--session", "a b"], dir);
    expect(s.code).not.toBe(0);
    expect(s.err).toMatch(/session id/);
    const m = await aref(["--store", join(dir, "store"), "migrate", "missing.jsonl"], dir);
    expect(m.code).not.toBe(0);
    expect(m.err).toMatch(/cannot read transcript/);
  });

  it("shows a progress bar on a terminal for a long transcript", async () => {
    const dir = temp();
    const file = join(dir, "long.jsonl");
    const { writeFileSync } = await import("node:fs");
    const lines = Array.from({ length: 210 }, (_, i) =>
      JSON.stringify({ role: "tool", tool_name: "sh", content: `${i}\n`.repeat(1_000) }),
    );
    writeFileSync(file, `${lines.join("\n")}\n`);
    const r = await aref(["--store", join(dir, "store"), "migrate", "long.jsonl"], dir, true);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/migrate \[.*\] 100% \| 210\/210/);
    expect(r.out).toMatch(/moved 210 of 210 tool results/);
  });

  it("derives the session from the file name", () => {
    expect(sessionFromPath("/x/my session.jsonl")).toBe("my-session");
    expect(sessionFromPath("/x/.jsonl")).toBe("default");
  });
});
