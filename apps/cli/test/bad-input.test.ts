import { ErrorReceiptSchema } from "@artifact-refs/schema";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run, tempDir, tempFile, tempStore } from "./helpers.js";

/** Two contents whose SHA-256 share their first 12 hex (89b895fb0bda), found by a birthday search. */
const COLLIDING = ["aref ambiguous prefix test 14047557\n", "aref ambiguous prefix test 59967149\n"];

async function storeWithOne(): Promise<{ store: string; id: string; ref: string }> {
  const store = tempStore();
  const r = await run(["stash", tempFile("a.txt", "some content\n"), "--store", store, "--json"]);
  return { store, id: r.json().artifact_id, ref: r.json().short_ref };
}

describe("invalid handles and prefixes", () => {
  const BAD: Array<[string, string, RegExp]> = [
    ["too short", "art:0123456789a", /at least 12 hex/],
    ["too short bare prefix", "abc", /at least 12 hex/],
    ["uppercase", "art:ABCDEF012345", /lowercase/],
    ["non-hex", "art:xyz012345678", /not hexadecimal/],
    ["path traversal", "../../etc/passwd", /printable ASCII|unknown scheme|not hexadecimal/],
    ["NUL", "art:0123456789ab\u0000", /printable ASCII/],
    ["whitespace", " art:0123456789ab", /printable ASCII/],
    ["trailing newline", "art:0123456789ab\n", /printable ASCII/],
    ["wrong scheme", "sha256:0123456789ab", /unknown scheme/],
    ["handle too short", "aref:v1:sha256:0123", /exactly 64/],
    ["too long", `art:${"a".repeat(65)}`, /more than 64/],
    ["empty", "", /empty/],
  ];
  for (const command of ["fetch", "cat", "peek", "rm"]) {
    for (const [name, ref, why] of BAD) {
      it(`${command} rejects ${name} with INVALID_HANDLE (exit 4)`, async () => {
        const { store } = await storeWithOne();
        const human = await run([command, ref, "--store", store]);
        expect(human.code).toBe(4);
        expect(human.out).toBe("");
        expect(human.err).toMatch(/^aref: invalid artifact reference /);
        expect(human.err).toMatch(why);
        expect(human.err).toMatch(/\nhint: use a handle \(aref:v1:sha256:<64 hex>\), a full 64-hex id, or a short ref/);
        const json = await run([command, ref, "--store", store, "--json"]);
        expect(json.code).toBe(4);
        const receipt = ErrorReceiptSchema.parse(json.json());
        expect(receipt.error.code).toBe("INVALID_HANDLE");
      });
    }
  }
});

describe("ambiguous, missing and unknown", () => {
  it("an ambiguous prefix lists the candidates and never guesses", async () => {
    const store = tempStore();
    const ids = [];
    for (const content of COLLIDING)
      ids.push(
        (await run(["stash", "-", "--store", store, "--json"], { stdin: content })).json().artifact_id as string,
      );
    expect(ids[0]!.slice(0, 12)).toBe(ids[1]!.slice(0, 12));
    const r = await run(["cat", "art:89b895fb0bda", "--store", store]);
    expect(r.code).toBe(4);
    expect(r.out).toBe("");
    expect(r.err).toContain("art:89b895fb0bda matches 2 artifacts");
    expect(r.err).toContain("art:89b895fb0bdac");
    expect(r.err).toContain("art:89b895fb0bda1");
    expect(r.err).toMatch(/hint: use more hex characters/);
    const j = await run(["fetch", "89b895fb0bda", "--store", store, "--json"]);
    expect(j.json().error).toMatchObject({
      code: "AMBIGUOUS_REF",
      details: { candidates: ["art:89b895fb0bda1", "art:89b895fb0bdac"] },
    });
    // The short refs aref prints are unique: one more hex char each.
    const list = (await run(["list", "--session", "default", "--store", store, "--json"])).json();
    expect(list.items.map((i: { short_ref: string }) => i.short_ref).sort()).toEqual([
      "art:89b895fb0bda1",
      "art:89b895fb0bdac",
    ]);
    const one = await run(["cat", "art:89b895fb0bdac", "--store", store]);
    expect(one.code).toBe(0);
    expect(one.out).toBe(COLLIDING[0]);
  });

  it("a missing artifact is NOT_FOUND (exit 3) for every command that takes a ref", async () => {
    const { store } = await storeWithOne();
    for (const command of ["fetch", "cat", "peek", "rm"]) {
      const r = await run([command, "art:000000000000", "--store", store]);
      expect(r.code, command).toBe(3);
      expect(r.err).toMatch(/^aref: no artifact matches art:000000000000/);
      expect(r.err).toMatch(/hint: check the ref with `aref list/);
    }
    const full = await run(["cat", `aref:v1:sha256:${"0".repeat(64)}`, "--store", store, "--json"]);
    expect(full.code).toBe(3);
    expect(full.json().error.code).toBe("NOT_FOUND");
  });

  it("an unknown session is UNKNOWN_SESSION (exit 3)", async () => {
    const { store, ref } = await storeWithOne();
    const list = await run(["list", "--session", "nope", "--store", store, "--json"]);
    expect(list.code).toBe(3);
    expect(list.json().error.code).toBe("UNKNOWN_SESSION");
    const rm = await run(["rm", ref, "--session", "nope", "--store", store]);
    expect(rm.code).toBe(3);
    expect(rm.err).toMatch(/^aref: session nope has no artifacts in this store/);
  });

  it("an invalid session id is INVALID_INPUT (exit 4)", async () => {
    const { store, ref } = await storeWithOne();
    for (const bad of ["../x", "a b", "", "x".repeat(129), "..", "ü"]) {
      const r = await run(["fetch", ref, "--session", bad, "--store", store, "--json"]);
      expect(r.code, bad).toBe(4);
      expect(r.json().error.code).toBe("INVALID_INPUT");
      expect(r.json().error.message).toMatch(/invalid session id/);
    }
    const stash = await run(["stash", "-", "--session", "a/b", "--store", store], { stdin: "x" });
    expect(stash.code).toBe(4);
  });
});

describe("stash input", () => {
  it("content over the cap is TOO_LARGE (exit 6), from a file and from stdin, and nothing is stored", async () => {
    const store = tempStore();
    const r = await run(["stash", "-", "--store", store, "--max-bytes", "1000", "--json"], { stdin: "x".repeat(1001) });
    expect(r.code).toBe(6);
    expect(r.json().error).toMatchObject({ code: "TOO_LARGE" });
    expect(r.json().error.message).toMatch(/standard input is more than 1000 bytes/);
    const f = await run(["stash", tempFile("f.txt", "y".repeat(2000)), "--store", store, "--max-bytes", "1KiB"]);
    expect(f.code).toBe(6);
    expect(f.err).toMatch(/is 2000 bytes, over the store's cap of 1024 bytes/);
    const stats = await run(["stats", "--store", store, "--json"]);
    // nothing stored: the store was never created (stats names it, exit 7), or it holds no blob
    if (existsSync(store)) expect(stats.json().blobs).toBe(0);
    else expect([stats.code, stats.json().error.code]).toEqual([7, "UNAVAILABLE"]);
    const exact = await run(["stash", "-", "--store", store, "--max-bytes", "1000"], { stdin: "x".repeat(1000) });
    expect(exact.code).toBe(0);
  });

  it("a missing file is NOT_FOUND, a directory is INVALID_INPUT", async () => {
    const store = tempStore();
    const missing = await run(["stash", "/no/such/file.txt", "--store", store]);
    expect(missing.code).toBe(3);
    expect(missing.err).toBe(
      "aref: no such file: /no/such/file.txt\nhint: check the path, or use `-` to read standard input\n",
    );
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    const isDir = await run(["stash", "sub", "--store", store], { cwd: dir });
    expect(isDir.code).toBe(4);
    expect(isDir.err).toMatch(/^aref: sub is a directory, not a file/);
  });

  it("refuses to wait on a terminal when nothing is piped in (usage, exit 2)", async () => {
    const r = await run(["stash", "--store", tempStore()], { stdinTTY: true });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^aref: nothing to stash: standard input is a terminal\nhint: give a file/);
  });

  it("stores empty input", async () => {
    const store = tempStore();
    const r = await run(["stash", "-", "--store", store, "--json"], { stdin: "" });
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      bytes: 0,
      artifact_id: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    });
    const cat = await run(["cat", r.json().short_ref, "--store", store]);
    expect(cat.stdout.length).toBe(0);
  });

  it("rejects a label over 300 chars and a bad --mime", async () => {
    const store = tempStore();
    const label = await run(["stash", "-", "--store", store, "--label", "l".repeat(301)], { stdin: "x" });
    expect(label.code).toBe(4);
    expect(label.err).toMatch(/the label is 301 characters, the limit is 300/);
    const mime = await run(["stash", "-", "--store", store, "--mime", "text plain", "--json"], { stdin: "x" });
    expect(mime.code).toBe(4);
    expect(mime.json().error.message).toMatch(/invalid --mime/);
  });
});

describe("usage errors (exit 2)", () => {
  const CASES: Array<[string, string[], RegExp]> = [
    [
      "bad --ttl",
      ["stash", "-", "--ttl", "5 moments"],
      /option '--ttl <duration>' argument '5 moments' is invalid\. expected a duration such as 30s/,
    ],
    ["zero --ttl", ["stash", "-", "--ttl", "0s"], /greater than zero/],
    ["negative --ttl", ["stash", "-", "--ttl", "-5m"], /is invalid/],
    ["bad --max-bytes", ["stash", "-", "--max-bytes", "lots"], /expected a size in bytes/],
    ["bad --type", ["stash", "-", "--type", "movie"], /argument 'movie' is invalid\. Allowed choices are repo, doc/],
    ["bad --grace", ["gc", "--grace", "soon"], /expected a duration/],
    ["unknown option", ["list", "--sesion", "x"], /unknown option '--sesion'\n?.*\(Did you mean --session\?\)/s],
    ["unknown command", ["stahs"], /unknown command 'stahs'/],
    ["missing argument", ["fetch"], /missing required argument 'ref'/],
    ["excess argument", ["cat", "art:000000000000", "extra"], /too many arguments/],
    [
      "--purge without --yes",
      ["rm", "art:000000000000", "--purge"],
      /--purge deletes the artifact's content .* cannot be undone/,
    ],
    ["--yes without --purge", ["rm", "art:000000000000", "--yes"], /--yes only confirms --purge/],
    ["bad --chars", ["peek", "art:000000000000", "--chars", "5000"], /from 1 to 2000/],
  ];
  for (const [name, args, message] of CASES) {
    it(`${name}`, async () => {
      const store = tempStore();
      const human = await run([...args, "--store", store], { stdin: "x" });
      expect(human.code).toBe(2);
      expect(human.out).toBe("");
      expect(human.err).toMatch(/^aref: /);
      expect(human.err).toMatch(message);
      expect(human.err).toMatch(/\nhint: /);
      const json = await run([...args, "--store", store, "--json"], { stdin: "x" });
      expect(json.code).toBe(2);
      const receipt = ErrorReceiptSchema.parse(json.json());
      expect(receipt.error).toMatchObject({ code: "INVALID_INPUT", details: { usage: true } });
      expect(json.err).toBe("");
    });
  }

  it("names the command in the usage hint", async () => {
    const r = await run(["stash", "-", "--ttl", "x", "--store", tempStore()]);
    expect(r.err).toMatch(/hint: run `aref stash --help` for usage and examples/);
  });
});

describe("store location", () => {
  it("uses --store, then AREF_STORE, then ~/.artifact-refs/store", async () => {
    const home = tempDir("aref-home-");
    const envStore = tempStore();
    const flagStore = tempStore();
    const a = await run(["stash", "-", "--json"], { stdin: "default home", env: { HOME: home } });
    expect(a.code).toBe(0);
    expect((await run(["cat", a.json().short_ref, "--store", join(home, ".artifact-refs", "store")])).out).toBe(
      "default home",
    );
    const b = await run(["stash", "-", "--json"], { stdin: "from env", env: { HOME: home, AREF_STORE: envStore } });
    expect((await run(["cat", b.json().short_ref, "--store", envStore])).out).toBe("from env");
    const c = await run(["stash", "-", "--json", "--store", flagStore], {
      stdin: "from flag",
      env: { HOME: home, AREF_STORE: envStore },
    });
    expect((await run(["cat", c.json().short_ref, "--store", flagStore])).out).toBe("from flag");
    expect((await run(["cat", c.json().short_ref], { env: { HOME: home, AREF_STORE: envStore } })).code).toBe(3);
  });

  it("a relative --store is relative to the working directory", async () => {
    const cwd = tempDir();
    const r = await run(["stash", "-", "--store", "./st", "--json"], { stdin: "rel", cwd });
    expect(r.code).toBe(0);
    expect((await run(["cat", r.json().short_ref, "--store", join(cwd, "st")])).out).toBe("rel");
  });

  it("memory: stores work (named ones are shared within the process)", async () => {
    const r = await run(["stash", "-", "--store", "memory:cli-test", "--json"], { stdin: "in memory" });
    expect(r.code).toBe(0);
    expect((await run(["cat", r.json().short_ref, "--store", "memory:cli-test"])).out).toBe("in memory");
    expect((await run(["list", "--store", "memory:", "--json"])).json().sessions).toEqual([]);
  });

  it("an invalid store spec is CONFIG_INVALID (exit 4)", async () => {
    for (const spec of ["ftp://host/x", "memory:bad name", "s3://UPPER/x", "./dir?gzip=maybe", "./dir?color=red"]) {
      const r = await run(["list", "--store", spec, "--json"]);
      expect(r.code, spec).toBe(4);
      expect(r.json().error.code).toBe("CONFIG_INVALID");
    }
    const env = await run(["stats"], { env: { AREF_STORE: "ftp://nope/x" } });
    expect(env.code).toBe(4);
    expect(env.err).toMatch(/^aref: invalid store spec "ftp:\/\/nope\/x": unknown scheme\nhint: use a directory/);
  });
});
