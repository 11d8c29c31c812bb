import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { itWithData, sharedDataFiles, sharedDataPath } from "@artifact-refs/tooling/testing/shared-data";
import { describe, expect, it } from "vitest";
import { run, tempDir, tempFile } from "./helpers.js";

// The reference is raw tiktoken (not aref's counting code), loaded from where @artifact-refs/budget
// installs it, so the CLI needs no tokenizer dependency of its own.
const require = createRequire(new URL("../../../packages/budget/package.json", import.meta.url));
const { get_encoding } = require("tiktoken") as {
  get_encoding(encoding: "cl100k_base" | "o200k_base"): { encode_ordinary(text: string): Uint32Array; free(): void };
};
const TRAJECTORIES = sharedDataPath("trajectories");
const files = sharedDataFiles("trajectories", ".jsonl");

describe("aref tokens", () => {
  itWithData(
    "trajectories",
    "gives the reference tiktoken count on every trajectory file (cl100k_base and, for gpt-4o, o200k_base)",
    async () => {
      expect(files.length).toBeGreaterThan(10);
      const cl100k = get_encoding("cl100k_base");
      const o200k = get_encoding("o200k_base");
      try {
        for (const file of files) {
          const path = join(TRAJECTORIES, file);
          const text = readFileSync(path, "utf8");
          const r = await run(["tokens", path, "--json"]);
          expect(r.code, r.err).toBe(0);
          const receipt = r.json();
          expect(receipt).toMatchObject({
            schema: "artifact-refs.tokens.v1",
            encoding: "cl100k_base",
            impl: "tiktoken",
            chars: text.length,
            bytes: Buffer.byteLength(text),
          });
          expect(receipt.tokens, file).toBe(cl100k.encode_ordinary(text).length);
          if (files.indexOf(file) % 4 !== 0) continue; // o200k on a quarter of the files keeps the test quick
          const r4o = await run(["tokens", path, "--model", "gpt-4o", "--impl", "gpt-tokenizer", "--json"]);
          expect(r4o.json().encoding).toBe("o200k_base");
          expect(r4o.json().tokens, file).toBe(o200k.encode_ordinary(text).length);
        }
      } finally {
        cl100k.free();
        o200k.free();
      }
    },
  );

  it("reads standard input with -, and prints a human line", async () => {
    const r = await run(["tokens", "-"], { stdin: "hello world" });
    expect(r.code).toBe(0);
    expect(r.out).toBe("2 tokens (cl100k_base, tiktoken) in 11 chars\n");
  });

  it("counts 1 MB of one repeated character without crashing", async () => {
    const r = await run(["tokens", "-", "--json"], { stdin: "a".repeat(1_000_000) });
    expect(r.code, r.err).toBe(0);
    expect(r.json().tokens).toBeGreaterThan(0);
  });

  it("unknown model: the default encoding and a warning; --strict makes it an error (exit 4)", async () => {
    const path = tempFile("p.txt", "some prompt text");
    const warned = await run(["tokens", path, "--model", "claude-sonnet-4", "--json"]);
    expect(warned.code).toBe(0);
    expect(warned.json()).toMatchObject({
      encoding: "cl100k_base",
      warning: expect.stringMatching(/unknown model "claude-sonnet-4"/),
    });
    const human = await run(["tokens", path, "--model", "claude-sonnet-4"]);
    expect(human.err).toMatch(/warning: unknown model/);
    const strict = await run(["tokens", path, "--model", "claude-sonnet-4", "--strict", "--json"]);
    expect(strict.code).toBe(4);
    expect(strict.json().error).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/strict mode/) });
  });

  it("bad input: missing file (3), binary (4), bad --impl (2), terminal stdin (2)", async () => {
    expect((await run(["tokens", "/nonexistent/file.txt"])).code).toBe(3);
    const binary = await run(["tokens", tempFile("b.bin", new Uint8Array([0xff, 0xfe, 0x00, 0xc3]))]);
    expect(binary.code).toBe(4);
    expect(binary.err).toMatch(/not UTF-8 text/);
    expect((await run(["tokens", "-", "--impl", "sentencepiece"], { stdin: "x" })).code).toBe(2);
    expect((await run(["tokens", "-"], { stdinTTY: true })).code).toBe(2);
  });

  it("bad input: a directory (4), standard input over 64 MiB (6), an unknown --encoding (2); budget check reads the same way", async () => {
    const dir = tempDir();
    for (const args of [
      ["tokens", dir],
      ["budget", "check", dir],
    ]) {
      const r = await run([...args, "--json"]);
      expect(r.code).toBe(4);
      expect(r.json().error).toMatchObject({
        code: "INVALID_INPUT",
        message: `${dir} is a directory, not a file`,
        hint: "give one text file",
      });
    }
    const huge = Buffer.alloc(64 * 1024 * 1024 + 1, 0x61);
    for (const args of [
      ["tokens", "-"],
      ["budget", "check", "-"],
    ]) {
      const r = await run([...args, "--json"], { stdin: huge });
      expect(r.code).toBe(6);
      expect(r.json().error).toMatchObject({
        code: "TOO_LARGE",
        message: "standard input is over 64 MiB",
        details: { max_bytes: 64 * 1024 * 1024 },
      });
    }
    const terminal = await run(["budget", "check", "-"], { stdinTTY: true });
    expect(terminal.code).toBe(2);
    expect(terminal.err).toMatch(
      /^aref: nothing to count: standard input is a terminal\nhint: give a file \(`aref budget check prompt\.txt`\)/,
    );
    const encoding = await run(["tokens", "-", "--encoding", "p50k_base"], { stdin: "x" });
    expect(encoding.code).toBe(2);
    expect(encoding.err).toMatch(/Allowed choices are o200k_base, cl100k_base/);
  });
});
