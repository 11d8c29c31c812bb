// Runs the built binary (`node dist/bin.js`) as a real process: real stdin pipe, real binary
// stdout, real exit codes, a real pty for the progress bar, a real user without write access.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ErrorReceiptSchema, FetchReceiptSchema, StashReceiptSchema } from "@artifact-refs/schema";
import { openStore } from "@artifact-refs/store-spec";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, blobPath, flipByte, spawnCli, tempFile, tempStore } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: build the CLI first (pnpm --filter @artifact-refs/cli... build)`);
});

describe("the aref binary", () => {
  it("stash <file> --json returns the handle; cat art:<12 hex> returns the bytes exactly", async () => {
    const store = tempStore();
    const bytes = randomBytes(400 * 1024); // binary, under the 512 KiB cap
    const file = tempFile("random.bin", bytes);
    const stash = await spawnCli(["stash", file, "--json", "--store", store]);
    expect(stash.code).toBe(0);
    const receipt = StashReceiptSchema.parse(JSON.parse(stash.out));
    expect(receipt.handle).toMatch(/^aref:v1:sha256:[0-9a-f]{64}$/);
    expect(receipt.short_ref).toMatch(/^art:[0-9a-f]{12}$/);
    const cat = await spawnCli(["cat", receipt.short_ref, "--store", store]);
    expect(cat.code).toBe(0);
    expect(cat.err).toBe("");
    expect(cat.stdout.equals(bytes)).toBe(true);
  });

  it("reads a real stdin pipe and prints the short ref", async () => {
    const store = tempStore();
    const text = "piped through a real process\n".repeat(100);
    const stash = await spawnCli(["stash", "-", "--store", store, "--session", "p1", "--type", "log"], { stdin: text });
    expect(stash.code).toBe(0);
    expect(stash.out).toMatch(/^art:[0-9a-f]{12}\n$/);
    const cat = await spawnCli(["cat", stash.out.trim(), "--store", store, "--session", "p1"]);
    expect(cat.out).toBe(text);
  });

  it("fetch never writes more than its cap to stdout", async () => {
    const store = tempStore();
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${"é".repeat(i % 13)}`).join("\n");
    const ref = (await spawnCli(["stash", "-", "--store", store], { stdin: text })).out.trim();
    for (const cap of [1, 50, 999, 8000, 20000]) {
      const r = await spawnCli(["fetch", ref, "--store", store, "--max-chars", String(cap)]);
      expect(r.code).toBe(0);
      // the cap is on the selected text; a final newline ends it when it has none
      expect(r.out.endsWith("\n")).toBe(true);
      expect(r.out.length - 1).toBeLessThanOrEqual(cap);
      expect(r.err).toMatch(/next: aref fetch/);
      const j = FetchReceiptSchema.parse(
        JSON.parse((await spawnCli(["fetch", ref, "--store", store, "--max-chars", String(cap), "--json"])).out),
      );
      expect(j.text.length).toBeLessThanOrEqual(cap);
    }
    const defaultCap = await spawnCli(["fetch", ref, "--store", store]);
    expect(defaultCap.out.length).toBeLessThanOrEqual(8001);
    expect(defaultCap.out.length).toBeGreaterThan(7000);
  });

  it("exits with the documented codes", async () => {
    const store = tempStore();
    const ok = await spawnCli(["stash", "-", "--store", store, "--json"], { stdin: "exit codes\n" });
    expect(ok.code).toBe(0);
    const id = JSON.parse(ok.out).artifact_id as string;
    expect((await spawnCli(["--help"])).code).toBe(0);
    expect((await spawnCli(["stash", "--ttl", "never", "--store", store])).code).toBe(2);
    expect((await spawnCli(["nonsense"])).code).toBe(2);
    expect((await spawnCli(["cat", "art:000000000000", "--store", store])).code).toBe(3);
    expect((await spawnCli(["cat", "art:ABCDEF012345", "--store", store])).code).toBe(4);
    expect(
      (await spawnCli(["stash", "-", "--store", store, "--max-bytes", "10"], { stdin: "more than ten bytes" })).code,
    ).toBe(6);
    flipByte(blobPath(store, id));
    const verify = await spawnCli(["verify", "--store", store, "--json"]);
    expect(verify.code).toBe(5);
    expect(JSON.parse(verify.out).problems[0]).toMatchObject({ kind: "integrity", artifact_id: id });
    const cat = await spawnCli(["cat", id, "--store", store, "--json"]);
    expect(cat.code).toBe(5);
    expect(ErrorReceiptSchema.parse(JSON.parse(cat.out)).error.code).toBe("INTEGRITY");
  });

  it("a reader closing the pipe early is not an error (EPIPE)", () => {
    const store = tempStore();
    const file = tempFile("big.txt", "0123456789abcdef\n".repeat(30_000));
    const ref = spawnSync(process.execPath, [BIN, "stash", file, "--store", store], { encoding: "utf8" }).stdout.trim();
    const r = spawnSync(
      "bash",
      [
        "-c",
        `"${process.execPath}" "${BIN}" cat ${ref} --store "${store}" | head -c 10; echo "status=\${PIPESTATUS[0]}" >&2`,
      ],
      { encoding: "utf8" },
    );
    expect(r.stdout).toBe("0123456789");
    expect(r.stderr).toMatch(/status=0\n$/);
    expect(r.stderr).not.toMatch(/EPIPE|Error/);
  });

  it("shows the progress bar on a real terminal (pty) for a large store", async () => {
    const location = tempStore();
    const store = await openStore(location);
    for (let i = 0; i < 80; i++) await store.put(`pty item ${i}\n`, { session: "pty" });
    await store.close();
    const r = spawnSync(
      "script",
      ["-qec", `"${process.execPath}" "${BIN}" verify --store "${location}"`, "/dev/null"],
      { encoding: "utf8" },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/verify \[[█░]+\] 100% \| 240\/240/);
    expect(r.stdout).toMatch(/verify: 80 blobs checked, no problems/);
  });

  it("a store the user cannot write is READ_ONLY (exit 7) for stash, and still readable", async () => {
    const location = tempStore();
    const ref = (await spawnCli(["stash", "-", "--store", location], { stdin: "read me\n" })).out.trim();
    // Make the store readable by everyone but writable by its owner only, then run as another user.
    const open = (dir: string) => {
      chmodSync(dir, 0o755);
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) open(path);
        else chmodSync(path, 0o644);
      }
    };
    open(location);
    chmodSync(join(location, ".."), 0o755);
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) {
      // Not root: take the write bits away from ourselves instead.
      const close = (dir: string) => {
        for (const name of readdirSync(dir)) if (statSync(join(dir, name)).isDirectory()) close(join(dir, name));
        chmodSync(dir, 0o555);
      };
      close(location);
    }
    const user = asRoot ? { uid: 65534, gid: 65534, env: { HOME: "/tmp" } } : {};
    const stash = await spawnCli(["stash", "-", "--store", location, "--json"], { stdin: "new content\n", ...user });
    expect(stash.code).toBe(7);
    const error = ErrorReceiptSchema.parse(JSON.parse(stash.out)).error;
    expect(["READ_ONLY", "PERMISSION_DENIED"]).toContain(error.code);
    expect(error.message).toMatch(/read-only|permission/);
    expect(error.hint).toBeDefined();
    const human = await spawnCli(["stash", "-", "--store", location], { stdin: "new content\n", ...user });
    expect(human.code).toBe(7);
    expect(human.err).toMatch(/^aref: .*\nhint: /);
    const cat = await spawnCli(["cat", ref, "--store", location], user);
    expect(cat.code).toBe(0);
    expect(cat.out).toBe("read me\n");
  });

  it("prints help with examples and the exit codes", async () => {
    const r = await spawnCli(["--help"]);
    expect(r.out).toMatch(/Examples:\n {2}\$ aref stash/);
    expect(r.out).toMatch(/Exit codes:\n {2}0 {2}success/);
    expect(r.out).toContain("AREF_STORE");
    const stashHelp = await spawnCli(["stash", "--help"]);
    expect(stashHelp.out).toMatch(/Usage: aref stash \[options\] \[files\.\.\.\]/);
    expect(stashHelp.out).toMatch(/Examples:/);
    const version = await spawnCli(["--version"]);
    expect(version.out).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
