import { spawn, type SpawnOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, cp, mkdtemp, readdir, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Driver } from "@artifact-refs/store";
import type { DriverFactory } from "@artifact-refs/store/testing";
import { FsDriver, type FsDriverOptions } from "@artifact-refs/store-fs";

/** A fresh store root under a fresh temp directory (the root itself is created by the driver). */
export async function tempRoot(): Promise<{ parent: string; root: string; cleanup: () => Promise<void> }> {
  const parent = await mkdtemp(join(tmpdir(), "aref-fs-"));
  // maxRetries: a put that failed on its reference (a planted symlink) may still be finishing its
  // blob write (the store runs them at once and rejects on the first failure), racing the removal.
  return {
    parent,
    root: join(parent, "store"),
    cleanup: () => rm(parent, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
  };
}

/** Contract harness: a driver on a fresh root; `reopen` is a second, independent FsDriver on the same root. */
export function fsFactory(options: Omit<FsDriverOptions, "root"> = {}): DriverFactory {
  return async () => {
    const { root, cleanup } = await tempRoot();
    return {
      driver: new FsDriver({ root, ...options }),
      reopen: async () => new FsDriver({ root, ...options }),
      cleanup,
    };
  };
}

export const CHILD = fileURLToPath(new URL("./fixtures/child.mjs", import.meta.url));

/** Child processes run built JS: fail clearly when it is missing rather than running stale or no code. */
export function assertBuilt(): void {
  for (const pkg of ["store-fs", "store", "schema"]) {
    const file = fileURLToPath(new URL(`../../${pkg}/dist/index.js`, import.meta.url));
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`pnpm --filter @artifact-refs/store-fs... build\` first`);
  }
}

export interface ChildRun<T> {
  /** Resolves once the child printed its first line (writers print {ready:true} and wait for "go"). */
  ready: Promise<void>;
  go: () => void;
  /** Every JSON line the child printed, and its exit code. */
  done: Promise<{ lines: T[]; code: number | null; stderr: string }>;
}

export function spawnJson<T = unknown>(command: string, args: string[], options: SpawnOptions = {}): ChildRun<T> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], ...options });
  let stdout = "";
  let stderr = "";
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout!.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes("\n")) markReady();
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ lines: T[]; code: number | null; stderr: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      markReady();
      const lines = stdout
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as T)
        .filter((l) => !(l as { ready?: boolean }).ready);
      resolve({ lines, code, stderr });
    });
  });
  return { ready, go: () => child.stdin!.end("go\n"), done };
}

/** Runs one child job with node and returns its single result line. */
export async function runChild<T>(
  job: Record<string, unknown>,
  options: SpawnOptions = {},
  child = CHILD,
): Promise<{ ok: boolean; value: T; error?: { code: string; message: string } }> {
  const run = spawnJson<{ ok: boolean; value: T }>(process.execPath, [child, JSON.stringify(job)], options);
  run.go();
  const { lines, code, stderr } = await run.done;
  if (code !== 0 || lines.length !== 1) throw new Error(`child ${JSON.stringify(job.job)} exited ${code}: ${stderr}`);
  return lines[0]!;
}

/** chmod a+rX, recursively. */
async function openToAll(path: string): Promise<void> {
  const info = await stat(path);
  await chmod(path, info.isDirectory() || info.mode & 0o100 ? 0o755 : 0o644);
  if (info.isDirectory()) for (const name of await readdir(path)) await openToAll(join(path, name));
}

/**
 * Copies the child script and the built packages it imports (and zod, lru-cache) into a fresh
 * world-readable directory, so that a child running as another user can load them
 * wherever the checkout lives (a checkout under a private home directory included).
 */
export async function stageChildForAnyUser(): Promise<{ child: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "aref-child-"));
  const modules = join(dir, "node_modules");
  for (const pkg of ["schema", "store", "store-fs"]) {
    const source = fileURLToPath(new URL(`../../${pkg}/`, import.meta.url));
    await cp(join(source, "package.json"), join(modules, "@artifact-refs", pkg, "package.json"));
    await cp(join(source, "dist"), join(modules, "@artifact-refs", pkg, "dist"), { recursive: true });
  }
  const zod = await realpath(fileURLToPath(new URL("../node_modules/zod", import.meta.url)));
  await cp(zod, join(modules, "zod"), { recursive: true });
  // The store's own dependency (its reference and chunk caches), resolved from the store package.
  const lru = await realpath(fileURLToPath(new URL("../../store/node_modules/lru-cache", import.meta.url)));
  await cp(lru, join(modules, "lru-cache"), { recursive: true });
  await cp(CHILD, join(dir, "child.mjs"));
  await openToAll(dir);
  return { child: join(dir, "child.mjs"), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The same FsDriver without the batch capability: writes chunks as loose files (the layout before packs). */
export function looseOnly(driver: FsDriver): Driver {
  return {
    kind: driver.kind,
    location: driver.location,
    putIfAbsent: (k, d) => driver.putIfAbsent(k, d),
    put: (k, d) => driver.put(k, d),
    get: (k) => driver.get(k),
    head: (k) => driver.head(k),
    delete: (k, o) => driver.delete(k, o),
    list: (p) => driver.list(p),
    uri: (k) => driver.uri(k),
    sweepTemp: (ms, o) => driver.sweepTemp(ms, o),
  };
}
