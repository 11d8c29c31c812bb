// The README's promise on a fresh machine: clone the repository into a temporary directory with
// no ../shared beside it, `pnpm install --frozen-lockfile`, `pnpm test` with CI unset, and the
// closing line says `0 failed` with the data-set tests skipped, one line each naming the data set.
// Slow (a whole `pnpm test` in the clone), so it is not in the test run of every commit: the
// stress run (`pnpm test:stress`) and CI (`.ci/run`) run it (`pnpm --filter @artifact-refs/stress fresh-clone`).
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { report } from "../src/summary.js";

const ROOT = resolve(import.meta.dirname, "../../..");
const OUTPUT_DIR = join(import.meta.dirname, "..", "test-output");
/** The data sets a test may need (../shared/data/<set>); a skip line naming another is a failure. */
const DATA_SETS = ["trajectories", "trajectories-more", "references/dev.json", "references/dev2.json"];
/**
 * The tests that read ../shared/data (through tooling/testing/shared-data.ts): 19 read the
 * trajectories, 3 trajectories-more (the per-set describe blocks of the assembler invariants skip
 * as one test each), 6 the reference set dev.json and 1 dev2.json. A new such test changes this on purpose.
 */
const EXPECTED_SKIPPED = 29;

const base = mkdtempSync(join(tmpdir(), "aref-fresh-clone-"));
// mkdtemp makes it 0700: the CLI test that runs the binary as another user (uid 65534) must reach it
chmodSync(base, 0o755);
afterAll(() => rmSync(base, { recursive: true, force: true }));

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 256 * 2 ** 20 });
  return { code: r.status, out: r.stdout ?? "", err: r.stderr ?? "" };
}

describe("a fresh clone without ../shared", () => {
  it("installs with the frozen lockfile and `pnpm test` ends with 0 failed and one line per data-set skip", () => {
    const repo = join(base, "artifact-refs");
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of [
      "CI",
      "AREF_STRESS",
      "AREF_STRESS_SEED",
      "VITEST",
      "VITEST_WORKER_ID",
      "VITEST_POOL_ID",
      "NODE_ENV",
      "TEST",
    ])
      delete env[name];

    const clone = sh("git", ["clone", "--quiet", ROOT, repo], base, env);
    expect(clone.code, clone.err).toBe(0);
    expect(existsSync(join(base, "shared"))).toBe(false);

    const install = sh("pnpm", ["install", "--frozen-lockfile"], repo, env);
    expect(install.code, install.err + install.out.slice(-2_000)).toBe(0);

    const started = Date.now();
    const test = sh("pnpm", ["test"], repo, env);
    const minutes = (Date.now() - started) / 60_000;
    // the whole output, for reading a failure afterwards
    mkdirSync(OUTPUT_DIR, { recursive: true });
    writeFileSync(join(OUTPUT_DIR, "fresh-clone-output.log"), `${test.out}\n--- stderr ---\n${test.err}`);
    const lines = test.out.split("\n");
    const failures = [...lines, ...test.err.split("\n")]
      .filter((l) => /FAIL|×|counted as failed|no test report/.test(l))
      .join("\n");
    // the closing line of run-tests.mjs (pnpm may print its own line after it when the run fails)
    const closing = lines.findLast((l) => /^\d+ passed, \d+ failed, \d+ skipped$/.test(l)) ?? "";
    const m = /^(\d+) passed, (\d+) failed, (\d+) skipped$/.exec(closing);
    expect(m, `no closing line\n${test.out.slice(-4_000)}\n${test.err.slice(-4_000)}`).not.toBeNull();
    const [passed, failed, skipped] = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(failed, `${closing}\n${failures}`).toBe(0);
    expect(test.code).toBe(0);

    const skipLines = lines.filter((l) => l.startsWith("skipped (no ../shared/data/"));
    expect(skipLines).toHaveLength(skipped);
    expect(skipped, skipLines.join("\n")).toBe(EXPECTED_SKIPPED);
    // every test that reads a data set is skipped, and only those: each line names one of them and where it goes
    expect(skipped).toBeGreaterThan(0);
    for (const line of skipLines) {
      const set = /^skipped \(no \.\.\/shared\/data\/(.+?); it goes at (.+?)\): /.exec(line);
      expect(set, line).not.toBeNull();
      expect(DATA_SETS, line).toContain(set![1]);
      expect(set![2]).toBe(join(base, "shared", "data", set![1]!));
    }
    expect(passed).toBeGreaterThan(500);
    report("fresh-clone", `${passed} passed, ${failed} failed, ${skipped} skipped in ${minutes.toFixed(1)} min`, {
      passed,
      failed,
      skipped,
      minutes,
    });
  }, 3_600_000);
});
