import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { isArefError } from "@artifact-refs/schema";
import { READ_FILE_MAX_BYTES, ToolRegistry, Workspace, builtinTools, runCommandTool } from "../src/index.js";

let base: string;
let root: string;
let tools: ToolRegistry;
const signal = new AbortController().signal;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isArefError(error)) return error.code;
    throw error;
  }
  throw new Error("expected the call to fail");
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "aref-tools-"));
  root = join(base, "ws");
  await mkdir(join(root, "src"), { recursive: true });
  await mkdir(join(base, "outside"));
  await writeFile(join(root, "README.md"), "# Demo\nA TODO here.\n");
  await writeFile(join(root, "src", "main.py"), "def main():\n    # TODO: wire it\n    return 1\n");
  await writeFile(join(root, "config.json"), '{"port": 8080}');
  await writeFile(join(root, "blob.bin"), Buffer.from([1, 0, 2, 3]));
  await writeFile(join(root, "huge.txt"), "x".repeat(READ_FILE_MAX_BYTES + 1));
  await writeFile(join(base, "outside", "secret.txt"), "TOP-SECRET\n");
  await symlink(join(base, "outside", "secret.txt"), join(root, "escape-link.txt"));
  tools = new ToolRegistry();
  for (const tool of builtinTools(await Workspace.open(root))) tools.register(tool);
  tools.register(runCommandTool({ cwd: root, allowed: ["echo hi", "exit 3"] }));
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe("workspace confinement", () => {
  it("never resolves a path outside the root: .., absolute paths, symlinks out, NUL", async () => {
    for (const path of ["../outside/secret.txt", "src/../../outside/secret.txt", join(base, "outside/secret.txt")])
      expect(await codeOf(tools.run("read_file", { path }, signal))).toBe("PERMISSION_DENIED");
    expect(await codeOf(tools.run("read_file", { path: "escape-link.txt" }, signal))).toBe("PERMISSION_DENIED");
    expect(await codeOf(tools.run("read_file", { path: "a\0b" }, signal))).toBe("INVALID_INPUT");
    expect(await codeOf(tools.run("read_file", { path: "missing.txt" }, signal))).toBe("NOT_FOUND");
  });

  it("refuses a root that does not exist or is a file", async () => {
    expect(await codeOf(Workspace.open(join(base, "nope")))).toBe("CONFIG_INVALID");
    expect(await codeOf(Workspace.open(join(root, "README.md")))).toBe("CONFIG_INVALID");
  });
});

describe("read_file, list_files, grep", () => {
  it("reads text with a display hint and refuses binaries, directories and files over the cap", async () => {
    const { output } = await tools.run("builtin.read_file", { path: "config.json" }, signal);
    expect(output).toMatchObject({ result: '{"port": 8080}', mime: "application/json", display: { syntax: "json" } });
    expect(await codeOf(tools.run("read_file", { path: "blob.bin" }, signal))).toBe("UNSUPPORTED");
    expect(await codeOf(tools.run("read_file", { path: "src" }, signal))).toBe("INVALID_INPUT");
    expect(await codeOf(tools.run("read_file", { path: "huge.txt" }, signal))).toBe("TOO_LARGE");
  });

  it("lists entries, shows links out without following them, and marks a cut listing partial", async () => {
    const all = (await tools.run("list_files", { recursive: true }, signal)).output;
    expect(all.result.split("\n")).toEqual(
      expect.arrayContaining([
        "README.md",
        "src/",
        "src/main.py",
        "escape-link.txt -> (outside the workspace, not followed)",
      ]),
    );
    expect(all.result).not.toContain("TOP-SECRET");
    const cut = (await tools.run("list_files", { max_entries: 2 }, signal)).output;
    expect(cut.resultType).toBe("partial");
  });

  it("greps text files with RE2 and rejects a bad pattern with a hint", async () => {
    const { output } = await tools.run("grep", { pattern: "TODO" }, signal);
    expect(output.result.split("\n").sort()).toEqual([
      "README.md:2: A TODO here.",
      "src/main.py:2:     # TODO: wire it",
    ]);
    expect(await codeOf(tools.run("grep", { pattern: "(a)\\1" }, signal))).toBe("INVALID_INPUT");
  });
});

describe("run_command and the registry", () => {
  it("runs only allow-listed commands; a non-zero exit is an error result", async () => {
    expect((await tools.run("run_command", { command: "echo hi" }, signal)).output).toMatchObject({
      result: "hi\n",
      resultType: "success",
    });
    expect((await tools.run("run_command", { command: "exit 3" }, signal)).output.resultType).toBe("error");
    expect(await codeOf(tools.run("run_command", { command: "cat /etc/passwd" }, signal))).toBe("FORBIDDEN");
  });

  it("validates names and arguments and refuses duplicates and unknown tools", async () => {
    const tool = { name: "x", title: "X", description: "", args: z.object({}), run: async () => ({ result: "" }) };
    expect(() => tools.register({ ...tool, name: "bad name" })).toThrow(/invalid tool name/);
    expect(() => tools.register({ ...tool, name: "grep" })).toThrow(/already registered/);
    expect(await codeOf(tools.run("nope", {}, signal))).toBe("NOT_FOUND");
    expect(await codeOf(tools.run("grep", { pattern: "" }, signal))).toBe("INVALID_INPUT");
  });
});
