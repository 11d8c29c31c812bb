// CLI conventions, each on the built binary (`node dist/bin.js` as a real process, pipes on
// every stream): no match is not silence, a missing --store is named, hints name commands and
// flags that exist, JSONPath results are JSON lines, piped text ends with a newline, --quiet
// everywhere, `tokens` reads standard input without `-`.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, spawnCli, tempDir, tempFile, tempStore } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: build the CLI first (pnpm --filter @artifact-refs/cli... build)`);
});

async function stashed(store: string, name: string, content: string | Uint8Array, ...flags: string[]): Promise<string> {
  const r = await spawnCli(["stash", tempFile(name, content), "--store", store, "--json", ...flags]);
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(r.out) as { short_ref: string }).short_ref;
}

/** Every command and its flags as `aref <command> --help` lists them. */
async function flagsOf(command: string[]): Promise<string> {
  return (await spawnCli([...command, "--help"])).out;
}

describe("no match is not silence", () => {
  it("fetch --grep with no matching line: nothing on stdout, a one-line note on stderr, exit 1 (and 0 when it matches)", async () => {
    const store = tempStore();
    const ref = await stashed(store, "app.log", "INFO up\nINFO ready\n");
    const none = await spawnCli(["fetch", ref, "--store", store, "--grep", "ERROR"]);
    expect(none.code).toBe(1);
    expect(none.out).toBe("");
    expect(none.err).toBe(`aref: no match for --grep ERROR in ${ref}\n`);
    const some = await spawnCli(["fetch", ref, "--store", store, "--grep", "ready"]);
    expect(some.code).toBe(0);
    expect(some.out).toContain("INFO ready");
    // --json: the receipt still prints, the exit code still says no match
    const json = await spawnCli(["fetch", ref, "--store", store, "--grep", "ERROR", "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out).stats.matches).toBe(0);
  });

  it("fetch --jsonpath with no result: a note and exit 1", async () => {
    const store = tempStore();
    const ref = await stashed(store, "d.json", JSON.stringify({ items: [{ id: 1 }] }));
    const r = await spawnCli(["fetch", ref, "--store", store, "--jsonpath", "$.nothing[*]"]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe(`aref: no match for --jsonpath '$.nothing[*]' in ${ref}\n`);
  });
});

describe("a --store that does not exist", () => {
  it("read-only commands name the path and exit with the storage code (7); list does not call it empty", async () => {
    const missing = `${tempStore()}-typo`;
    for (const args of [
      ["list"],
      ["stats"],
      ["verify"],
      ["gc"],
      ["fetch", "art:000000000000"],
      ["peek", "art:000000000000"],
      ["cat", "art:000000000000"],
    ]) {
      const r = await spawnCli([...args, "--store", missing]);
      expect(r.code, `${args.join(" ")}: ${r.err}`).toBe(7);
      expect(r.out).toBe("");
      expect(r.err).toContain(`no store at ${missing}`);
      expect(r.err).not.toMatch(/empty/);
      expect(existsSync(missing)).toBe(false); // reading never creates it
    }
    const json = await spawnCli(["list", "--store", missing, "--json"]);
    expect(json.code).toBe(7);
    expect(JSON.parse(json.out).error).toMatchObject({ code: "UNAVAILABLE", details: { store: missing } });
  });

  it("an existing empty store is empty (exit 0); stash creates a missing one", async () => {
    const store = tempStore();
    mkdirSync(store);
    const empty = await spawnCli(["list", "--store", store]);
    expect(empty.code).toBe(0);
    expect(empty.out).toMatch(/the store is empty/);
    const created = tempStore();
    await stashed(created, "a.txt", "hello\n");
    expect((await spawnCli(["list", "--store", created])).code).toBe(0);
  });
});

describe("hints name commands and flags that exist", () => {
  it("list --session nosuch points to `aref list`, whose help has no unknown flag", async () => {
    const store = tempStore();
    await stashed(store, "a.txt", "hello\n", "--session", "s1");
    const r = await spawnCli(["list", "--store", store, "--session", "nosuch"]);
    expect(r.code).toBe(3);
    const hint = /hint: .*`(aref [^`]+)`/.exec(r.err);
    expect(hint, r.err).not.toBeNull();
    const flags = hint![1]!.split(" ").filter((w) => w.startsWith("--"));
    const help = await flagsOf(
      hint![1]!
        .split(" ")
        .slice(1)
        .filter((w) => !w.startsWith("-")),
    );
    for (const flag of flags) expect(help).toContain(flag);
    const run = await spawnCli([...hint![1]!.split(" ").slice(1), "--store", store]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("s1");
  });

  it("peek on a binary artifact suggests `aref cat`, not fetch (which refuses binary)", async () => {
    const store = tempStore();
    const ref = await stashed(store, "blob.bin", new Uint8Array([0, 1, 2, 255, 254, 0, 7, 8, 0, 200]));
    const r = await spawnCli(["peek", ref, "--store", store]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`\`aref cat ${ref} > file\``);
    expect(r.out).not.toContain("aref fetch");
    const cat = await spawnCli(["cat", ref, "--store", store]);
    expect(cat.code).toBe(0);
    expect([...cat.stdout]).toEqual([0, 1, 2, 255, 254, 0, 7, 8, 0, 200]);
  });

  it("--range 12:10 explains the CLI form (A:B, A <= B), not the JSON selector", async () => {
    const store = tempStore();
    const ref = await stashed(store, "lines.txt", Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n"));
    const r = await spawnCli(["fetch", ref, "--store", store, "--range", "12:10"]);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/hint: --range A:B takes 1-based line numbers with A <= B/);
    expect(r.err).not.toContain("{mode");
    const ok = await spawnCli(["fetch", ref, "--store", store, "--range", "10:12"]);
    expect(ok.out).toBe("line 10\nline 11\nline 12\n");
  });
});

describe("output", () => {
  it("JSONPath results print as compact JSON lines; --pretty indents them", async () => {
    const store = tempStore();
    const doc = { items: [{ id: 1, tags: ["a", "b"] }, { id: 2, tags: [] }, "three"] };
    const ref = await stashed(store, "d.json", JSON.stringify(doc, null, 2));
    const many = await spawnCli(["fetch", ref, "--store", store, "--jsonpath", "$.items[*]"]);
    expect(many.code).toBe(0);
    expect(many.out).toBe('{"id":1,"tags":["a","b"]}\n{"id":2,"tags":[]}\n"three"\n');
    for (const line of many.out.trimEnd().split("\n")) JSON.parse(line);
    const one = await spawnCli(["fetch", ref, "--store", store, "--jsonpath", "$.items[0]"]);
    expect(one.out).toBe('{"id":1,"tags":["a","b"]}\n');
    const pretty = await spawnCli(["fetch", ref, "--store", store, "--jsonpath", "$.items[0]", "--pretty"]);
    expect(pretty.out).toBe(`${JSON.stringify(doc.items[0], null, 2)}\n`);
    const prettyMany = await spawnCli(["fetch", ref, "--store", store, "--jsonpath", "$.items[*]", "--pretty"]);
    expect(JSON.parse(prettyMany.out)).toEqual(doc.items);
    expect(prettyMany.out).toBe(`${JSON.stringify(doc.items, null, 2)}\n`);
  });

  it("piped text ends with a newline (fetch of text without one); cat stays byte-exact", async () => {
    const store = tempStore();
    const ref = await stashed(store, "note.txt", "no newline at the end");
    const fetched = await spawnCli(["fetch", ref, "--store", store]);
    expect(fetched.out).toBe("no newline at the end\n");
    const cat = await spawnCli(["cat", ref, "--store", store]);
    expect(cat.out).toBe("no newline at the end");
  });

  it("--quiet on every command: no notes on stderr, errors still print, exit codes unchanged", async () => {
    const program = await spawnCli(["--help"]);
    const commands = [...program.out.matchAll(/^ {2}([a-z][a-z-]+)(?: |\n)/gm)]
      .map((m) => m[1]!)
      .filter((c) => c !== "help");
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) expect(await flagsOf([command]), command).toContain("-q, --quiet");

    const store = tempStore();
    const ref = await stashed(store, "app.log", "INFO up\n".repeat(3_000));
    const loud = await spawnCli(["fetch", ref, "--store", store, "--max-chars", "200"]);
    expect(loud.err).toMatch(/^aref: showed/);
    const quiet = await spawnCli(["fetch", ref, "--store", store, "--max-chars", "200", "--quiet"]);
    expect(quiet.code).toBe(0);
    expect(quiet.err).toBe("");
    expect(quiet.out).toBe(loud.out);
    const noMatch = await spawnCli(["fetch", ref, "--store", store, "--grep", "ERROR", "-q"]);
    expect([noMatch.code, noMatch.err]).toEqual([1, ""]);
    const stash = await spawnCli(["stash", "-", "--store", store, "--quiet"], { stdin: "x\n" });
    expect(stash.code).toBe(0);
    expect(stash.err).toBe("");
    expect(stash.out).toMatch(/^art:[0-9a-f]{12}/);
    const error = await spawnCli(["fetch", "art:000000000000", "--store", store, "--quiet"]);
    expect(error.code).toBe(3);
    expect(error.err).toMatch(/^aref: /);
  });

  it("tokens reads standard input without `-`, like stash", async () => {
    const text = "count these words, please\n";
    const bare = await spawnCli(["tokens", "--json"], { stdin: text });
    const dash = await spawnCli(["tokens", "-", "--json"], { stdin: text });
    expect(bare.code, bare.err).toBe(0);
    expect(JSON.parse(bare.out)).toEqual(JSON.parse(dash.out));
    expect(JSON.parse(bare.out).tokens).toBeGreaterThan(3);
  });
});

describe("analyze DIR", () => {
  it("reads every .jsonl/.json transcript in a directory (sorted), nothing else; an empty one is INVALID_INPUT", async () => {
    const dir = tempDir("aref-transcripts-");
    const messages = [
      { role: "system", content: "You are an agent." },
      { role: "user", content: "Read the log." },
      { role: "assistant", content: "cat app.log" },
      { role: "tool", content: "x".repeat(10).concat("\n").repeat(1_000), tool_name: "bash" },
      { role: "assistant", content: "Done." },
    ];
    writeFileSync(join(dir, "b.jsonl"), messages.map((m) => JSON.stringify(m)).join("\n"));
    writeFileSync(
      join(dir, "a.json"),
      JSON.stringify(
        messages.map((m) => (m.role === "tool" ? { role: "tool", tool_call_id: "c1", content: m.content } : m)),
      ),
    );
    writeFileSync(join(dir, "notes.txt"), "not a transcript");
    const r = await spawnCli(["analyze", dir, "--json", "--store", "memory:"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).files.map((f: { file: string }) => f.file)).toEqual(["a.json", "b.jsonl"]);
    const empty = tempDir("aref-empty-");
    const none = await spawnCli(["analyze", empty]);
    expect(none.code).toBe(4);
    expect(none.err).toContain(`${empty} holds no transcript`);
  });
});
