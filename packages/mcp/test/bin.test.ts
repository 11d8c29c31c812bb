import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN } from "./helpers.js";

const run = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    input: "",
    env: { ...process.env, AREF_STORE: "memory:" },
  });

describe("aref-mcp command line", () => {
  it("prints usage on --help and on an unknown flag (exit 2), never on stdout", () => {
    const help = run(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe("");
    expect(help.stderr).toContain("Usage: aref-mcp");
    const bad = run(["--bogus"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Unknown option '--bogus'/);
  });

  it("rejects a bad session id and a bad --max-chars with a clear message", () => {
    const session = run(["--session", "no spaces allowed"]);
    expect(session.status).toBe(1);
    expect(session.stderr).toMatch(/INVALID_INPUT: invalid session id/);
    const max = run(["--max-chars", "0"]);
    expect(max.status).toBe(2);
    expect(max.stderr).toMatch(/--max-chars must be a whole number from 1/);
    const store = run(["--store", "s3://"]);
    expect(store.status).not.toBe(0);
    expect(store.stderr).toMatch(/^aref-mcp: /);
  });

  it("exits 0 when the client closes stdin", () => {
    const r = run(["--session", "s1"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
  });
});
