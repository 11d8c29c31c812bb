import { openStore } from "@artifact-refs/store-spec";
import { describe, expect, it } from "vitest";
import { run, tempStore } from "./helpers.js";

// Issue 17 ("Hardening, round two"): CLI regression tests.

/** Any byte a terminal would act on: C0 (except \n, \t), DEL, C1, and bidi overrides. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe("terminal escape injection (issue 17 #10)", () => {
  it("labels and summaries with ESC/OSC/C1/bidi sequences print escaped in list and peek", async () => {
    const root = tempStore();
    const store = await openStore(root);
    const evil = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil";
    const put = await store.put("content of the artifact\n", {
      session: "s1",
      label: `log ${evil}`,
      summary: `SUMMARY ${evil}`,
      type: "log",
    });
    await store.close();
    for (const args of [
      ["list", "--session", "s1"],
      ["list", "--all"],
      ["peek", put.shortRef],
      ["peek", put.shortRef, "--session", "s1"],
    ]) {
      const r = await run([...args, "--store", root]);
      expect(r.code, r.err).toBe(0);
      expect(r.out, args.join(" ")).not.toMatch(CONTROL);
      expect(r.out).toContain("\\u001b");
    }
    const json = await run(["peek", put.shortRef, "--json", "--session", "s1", "--store", root]);
    expect(json.out).not.toMatch(CONTROL);
    expect(json.json().record.label).toBe(`log ${evil}`);
  });
});

describe("every input source is capped (issue 17 #13)", () => {
  it("`aref stash /dev/zero` stops at the cap with TOO_LARGE instead of reading forever", async () => {
    const { spawnSync } = await import("node:child_process");
    const { existsSync } = await import("node:fs");
    const { BIN } = await import("./helpers.js");
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the CLI first`);
    const store = tempStore();
    // A real process (the old code read without limit and would take the test runner's memory with it); killed after 20 s.
    const r = spawnSync(
      process.execPath,
      [BIN, "stash", "/dev/zero", "--store", store, "--max-bytes", "1048576", "--json"],
      { timeout: 20_000, encoding: "utf8" },
    );
    expect(r.signal).toBeNull();
    expect(JSON.parse(r.stdout).error.code).toBe("TOO_LARGE");
    expect(r.status).not.toBe(0);
  });
});

describe("small ones (issue 17 #16)", () => {
  it("every error code's exit code is documented in --help, CONFLICT included", async () => {
    const { EXIT_CODE_OF, EXIT_CODE_TABLE } = await import("../src/exit-codes.js");
    for (const [code, exit] of Object.entries(EXIT_CODE_OF)) {
      const row = EXIT_CODE_TABLE.find(([e]) => e === exit);
      expect(row?.[1], code).toContain(code);
    }
    const help = await run(["--help"]);
    expect(help.out).toMatch(/7 {2}.*CONFLICT/);
  });

  it("a stdin stash names standard input, not the label another put gave the same bytes", async () => {
    const store = tempStore();
    const { tempFile } = await import("./helpers.js");
    const first = await run([
      "stash",
      tempFile("secret-plan.txt", "same bytes\n"),
      "--store",
      store,
      "--session",
      "s1",
    ]);
    expect(first.code).toBe(0);
    const second = await run(["stash", "-", "--store", store, "--session", "s1"], { stdin: "same bytes\n" });
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/^stashed standard input as /);
  });
});
