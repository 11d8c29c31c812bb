import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { main } from "../src/main.js";

export const CLI_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = join(CLI_DIR, "dist", "bin.js");

/** A stream that keeps what is written to it. */
export class Capture {
  readonly chunks: Buffer[] = [];
  isTTY: boolean | undefined;
  columns: number | undefined;
  constructor(options: { isTTY?: boolean; columns?: number } = {}) {
    this.isTTY = options.isTTY;
    this.columns = options.columns;
  }
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean {
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
    callback?.();
    return true;
  }
  get buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
  get text(): string {
    return this.buffer.toString("utf8");
  }
}

export interface RunResult {
  code: number;
  /** stdout as bytes (for byte-exact checks). */
  stdout: Buffer;
  out: string;
  err: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

export interface RunOptions {
  stdin?: string | Uint8Array;
  /** Pretend standard input is a terminal (nothing piped). */
  stdinTTY?: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stderrTTY?: boolean;
}

const homes: string[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const dir of [...dirs, ...homes]) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory, removed after the test file. */
export function tempDir(name = "aref-cli-"): string {
  const dir = mkdtempSync(join(tmpdir(), name));
  dirs.push(dir);
  return dir;
}

/** A fresh on-disk store location (the directory does not exist yet: the store creates it). */
export function tempStore(): string {
  return join(tempDir("aref-store-"), "store");
}

/** Writes a file in a fresh temp dir and returns its path. */
export function tempFile(name: string, content: string | Uint8Array): string {
  const path = join(tempDir("aref-in-"), name);
  writeFileSync(path, content);
  return path;
}

/** Runs aref in-process through main() with captured io. HOME is a fresh temp dir unless env says otherwise. */
export async function run(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const stdout = new Capture();
  const stderr = new Capture({ isTTY: options.stderrTTY ?? false, columns: 100 });
  const source =
    options.stdin === undefined
      ? []
      : [typeof options.stdin === "string" ? Buffer.from(options.stdin) : Buffer.from(options.stdin)];
  const stdin = Object.assign(Readable.from(source), { isTTY: options.stdinTTY ?? false });
  let home = options.env?.HOME;
  if (home === undefined) {
    home = mkdtempSync(join(tmpdir(), "aref-home-"));
    homes.push(home);
  }
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...options.env, HOME: home };
  const code = await main(args, { stdout, stderr, stdin, env, cwd: options.cwd ?? process.cwd() });
  const out = stdout.text;
  return {
    code,
    stdout: stdout.buffer,
    out,
    err: stderr.text,
    json: () => JSON.parse(out),
  };
}

/** Runs the built binary `node dist/bin.js` as a real process. */
export function spawnCli(
  args: string[],
  options: { stdin?: string | Uint8Array; env?: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number } = {},
): Promise<{ code: number | null; stdout: Buffer; out: string; err: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? CLI_DIR,
      env: { PATH: process.env.PATH, HOME: options.env?.HOME ?? tempDir("aref-home-"), ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code) => {
      const stdout = Buffer.concat(out);
      resolvePromise({ code, stdout, out: stdout.toString("utf8"), err: Buffer.concat(err).toString("utf8") });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.stdin === undefined ? undefined : Buffer.from(options.stdin));
  });
}

/** The path of a blob file in an fs store (uncompressed layout). */
export function blobPath(store: string, id: string): string {
  return join(store, "blobs", "sha256", id.slice(0, 2), id.slice(2, 4), id);
}

/** The path of a session's reference file in an fs store, found on disk (whatever the sharding). */
export function refPath(store: string, session: string, id: string): string {
  const found = readdirSync(join(store, "refs", session), { recursive: true, encoding: "utf8" }).find((p) =>
    p.endsWith(`${id}.json`),
  );
  if (found === undefined) throw new Error(`no reference file for ${id} in session ${session} of ${store}`);
  return join(store, "refs", session, found);
}

export function metaPath(store: string, id: string): string {
  return join(store, "meta", "sha256", id.slice(0, 2), id.slice(2, 4), `${id}.json`);
}

/** Flips one bit of one byte of a file on disk. */
export function flipByte(path: string, at = 0): void {
  const bytes = readFileSync(path);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(path, bytes);
}

/** A seeded PRNG (mulberry32) so random tests are reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
