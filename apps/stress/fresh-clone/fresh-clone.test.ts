// The README's promise on a fresh machine: clone the repository into a temporary directory with
// no ../shared beside it, `pnpm install --frozen-lockfile`, `pnpm test` with CI unset, and the
// closing line says `0 failed` with the data-set tests skipped, one line each naming the data set.
// Slow (a whole `pnpm test` in the clone), so it is not in the test run of every commit: the
// stress run (`pnpm test:stress`) and CI (`.ci/run`) run it (`pnpm --filter @artifact-refs/stress fresh-clone`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { report } from "../src/summary.js";

const ROOT = resolve(import.meta.dirname, "../../..");
/** The data sets a test may need (../shared/data/<set>); a skip line naming another is a failure. */
const DATA_SETS = ["trajectories", "references/dev.json"];

const base = mkdtempSync(join(tmpdir(), "aref-fresh-clone-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 256 * 2 ** 20 });
  return { code: r.status, out: r.stdout ?? "", err: r.stderr ?? "" };
}

describe("a fresh clone without ../shared", () => {
  it("installs with the frozen lockfile and `pnpm test` ends with 0 failed and one line per data-set skip", () => {
    const repo = join(base, "artifact-refs");
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ["CI", "AREF_STRESS", "AREF_STRESS_SEED", "VITEST", "VITEST_WORKER_ID", "VITEST_POOL_ID", "NODE_ENV", "TEST"]) delete env[name];

    const clone = sh("git", ["clone", "--quiet", ROOT, repo], base, env);
    expect(clone.code, clone.err).toBe(0);
    expect(existsSync(join(base, "shared"))).toBe(false);

    const install = sh("pnpm", ["install", "--frozen-lockfile"], repo, env);
    expect(install.code, install.err + install.out.slice(-2_000)).toBe(0);

    const started = Date.now();
    const test = sh("pnpm", ["test"], repo, env);
    const minutes = (Date.now() - started) / 60_000;
    const lines = test.out.trimEnd().split("\n");
    const closing = lines.at(-1) ?? "";
    const m = /^(\d+) passed, (\d+) failed, (\d+) skipped$/.exec(closing);
    expect(m, `closing line: ${closing}\n${test.out.slice(-4_000)}\n${test.err.slice(-4_000)}`).not.toBeNull();
    const [passed, failed, skipped] = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(failed, test.out.slice(-6_000) + test.err.slice(-4_000)).toBe(0);
    expect(test.code).toBe(0);

    const skipLines = lines.filter((l) => l.startsWith("skipped (no ../shared/data/"));
    expect(skipLines).toHaveLength(skipped);
    // every test that reads a data set is skipped, and only those: each line names one of them and where it goes
    expect(skipped).toBeGreaterThan(0);
    for (const line of skipLines) {
      const set = /^skipped \(no \.\.\/shared\/data\/(.+?); it goes at (.+?)\): /.exec(line);
      expect(set, line).not.toBeNull();
      expect(DATA_SETS, line).toContain(set![1]);
      expect(set![2]).toBe(join(base, "shared", "data", set![1]!));
    }
    expect(passed).toBeGreaterThan(500);
    report("fresh-clone", `${passed} passed, ${failed} failed, ${skipped} skipped in ${minutes.toFixed(1)} min`, { passed, failed, skipped, minutes });
  }, 3_600_000);
});
