import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The eval script's argument handling, run for real (node + tsx) as `pnpm eval -- ...` runs it.
const script = fileURLToPath(new URL("../eval/run-dev.ts", import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, ["--conditions=@artifact-refs/source", "--import", "tsx", script, ...args], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    encoding: "utf8",
  });

describe("eval command line", () => {
  it("prints the usage on --help, even behind the bare -- that pnpm passes through", () => {
    const r = run("--", "--help");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: eval/);
    expect(r.stderr).not.toMatch(/cannot read/);
  }, 120_000); // spawns node + tsx: slow on a loaded machine, not a speed check

  it("exits 2 with the usage on an unknown flag, and on --hold without its list", () => {
    const r = run("--", "--whyy");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown flag --whyy/);
    expect(r.stderr).toMatch(/usage: eval/);
    const h = run("--hold");
    expect(h.status).toBe(2);
    expect(h.stderr).toMatch(/--hold needs/);
  }, 120_000);

  it("still reads a named set after a bare --", () => {
    const r = run("--", "eval/dev-r3.json");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/dev-r3\.json/);
    expect(r.stdout).toMatch(/top-1 on resolvable queries/);
  }, 120_000);
});
