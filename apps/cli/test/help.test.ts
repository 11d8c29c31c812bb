import { describe, expect, it } from "vitest";
import { EXIT_CODE_OF, EXIT_CODE_TABLE } from "../src/exit-codes.js";
import { ERROR_CODES } from "@artifact-refs/schema";
import { run } from "./helpers.js";

const COMMANDS = ["stash", "fetch", "cat", "peek", "list", "rm", "gc", "verify", "stats"];

describe("--help", () => {
  it("the program's help lists every command, examples, the environment and the exit codes", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const command of COMMANDS) expect(r.out).toMatch(new RegExp(`^  ${command}\\b`, "m"));
    expect(r.out).toMatch(/Examples:\n {2}\$ aref stash build\.log --session s1/);
    expect(r.out).toMatch(/Environment:\n {2}AREF_STORE/);
    for (const [code, what] of EXIT_CODE_TABLE) expect(r.out).toContain(`  ${code}  ${what}`);
  });

  for (const command of COMMANDS) {
    it(`aref ${command} --help shows its usage and examples`, async () => {
      const r = await run([command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: aref ${command}[ |]`));
      expect(r.out).toMatch(/\nExamples:\n {2}\$ aref /);
      expect(r.out).toContain("--store <spec>"); // global options are shown too
      const viaHelp = await run(["help", command]);
      expect(viaHelp.code).toBe(0);
      expect(viaHelp.out).toBe(r.out);
    });
  }

  it("aref alone prints the help on stderr and exits 2", async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^Usage: aref /);
  });
});

describe("exit codes", () => {
  it("map every error code to one documented exit code", () => {
    const documented = new Set(EXIT_CODE_TABLE.map(([code]) => code));
    for (const code of ERROR_CODES) expect(documented.has(EXIT_CODE_OF[code]), code).toBe(true);
    expect(EXIT_CODE_OF).toMatchObject({
      NOT_FOUND: 3,
      UNKNOWN_SESSION: 3,
      EXPIRED: 3,
      INVALID_HANDLE: 4,
      INVALID_INPUT: 4,
      AMBIGUOUS_REF: 4,
      INVALID_SELECTOR: 4,
      CONFIG_INVALID: 4,
      INTEGRITY: 5,
      CORRUPT_METADATA: 5,
      TOO_LARGE: 6,
      BUDGET_EXCEEDED: 6,
      READ_ONLY: 7,
      PERMISSION_DENIED: 7,
      IO_ERROR: 7,
      UNAVAILABLE: 7,
      INTERNAL: 1,
    });
  });
});
