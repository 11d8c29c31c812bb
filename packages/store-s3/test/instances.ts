import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// Store instances in their own node processes (built dist/ code, test/fixtures/instance.mjs).
const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..");

export interface Instance {
  call<T = unknown>(op: string, args?: Record<string, unknown>): Promise<T>;
  child: ChildProcessWithoutNullStreams;
}

/** `floorMs`: the store's gc grace floor (its gc loop then runs with grace = the floor); none by default. */
export function startInstance(
  bucket: string,
  prefix: string,
  endpoint: string,
  env: Record<string, string>,
  floorMs?: number,
): Instance {
  const args = [join(here, "fixtures", "instance.mjs"), bucket, prefix, endpoint];
  if (floorMs !== undefined) args.push(String(floorMs));
  const child = spawn(process.execPath, args, {
    cwd: packageDir,
    env: { ...process.env, ...env },
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += String(d)));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as {
      id: number;
      ok: boolean;
      result?: unknown;
      error?: { code: string; message: string };
    };
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.result);
    else waiter?.reject(Object.assign(new Error(message.error!.message), { code: message.error!.code }));
  });
  child.on("exit", (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`instance exited (${code}): ${stderr}`));
    pending.clear();
  });
  let next = 0;
  return {
    child,
    call: <T>(op: string, args: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = ++next;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
      }),
  };
}

/** Throws unless the packages the instances run are built. */
export function assertBuilt(): void {
  for (const pkg of ["schema", "store", "store-s3"]) {
    const dist = join(packageDir, "..", pkg, "dist", "index.js");
    if (!existsSync(dist))
      throw new Error(`${dist} is missing: build first (pnpm --filter @artifact-refs/store-s3... build)`);
  }
}
