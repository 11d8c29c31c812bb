import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, CLI_DIR, tempDir } from "./helpers.js";

/** The first ```sh block after `heading` in the README. */
function block(heading: string): string {
  const readme = readFileSync(join(CLI_DIR, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(heading));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`no sh block after ${heading}`);
  return match[1]!;
}

describe("README", () => {
  it("the Tour runs as written with the built binary", () => {
    expect(existsSync(BIN)).toBe(true);
    const cwd = tempDir("aref-tour-");
    const script = `set -euo pipefail\naref() { "${process.execPath}" "${BIN}" "$@"; }\n${block("## Tour")}`;
    const r = spawnSync("bash", ["-c", script], { cwd, encoding: "utf8", env: { PATH: process.env.PATH, HOME: cwd } });
    expect(r.stderr).not.toMatch(/^aref: (?!showed|warning)/m);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/"schema": "artifact-refs\.stash\.v1"/);
    expect(r.stdout).toMatch(/step 1 done\n/);
    expect(r.stdout).toMatch(/^1500:step 1500 done$/m);
    expect(r.stdout).toMatch(/step 10 done\nstep 11 done\nstep 12 done\n/);
    expect(r.stdout).toMatch(/^1\n2\n/m); // JSONPath results: one compact JSON value per line
    expect(r.stdout).toMatch(/gc \(dry run, nothing deleted\): would sweep 1 of 2 blobs/);
    expect(r.stdout).toMatch(/gc: swept 1 of 2 blobs/);
    expect(r.stdout).toMatch(/verify: 1 blobs checked, no problems/);
  });

  it("the analyze example runs as written: 100 columns by default, --wide, --json and the chart", () => {
    const cwd = tempDir("aref-analyze-readme-");
    const script = `set -euo pipefail\naref() { "${process.execPath}" "${BIN}" "$@"; }\n${block("## Analyze transcripts")}`;
    const r = spawnSync("bash", ["-c", script], { cwd, encoding: "utf8", env: { PATH: process.env.PATH, HOME: cwd } });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(Math.max(...r.stdout.split("\n").map((l) => Array.from(l).length))).toBeLessThanOrEqual(100);
    expect(r.stdout).toMatch(/^total \(3 files\) +7 /m);
    expect(readFileSync(join(cwd, "report.md"), "utf8")).toContain(" rehydration mismatches |");
    expect(JSON.parse(readFileSync(join(cwd, "report.json"), "utf8")).files).toHaveLength(3);
    expect(readFileSync(join(cwd, "policies.svg"), "utf8").match(/<text class="group-label"/g)).toHaveLength(2 * 4);
  });
});
