import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A fixture script under test/fixtures (run with node: built JS only). */
export const fixture = (name: string): string => fileURLToPath(new URL(`../test/fixtures/${name}`, import.meta.url));

/** Children run the packages' dist/: fail clearly when a build is missing rather than run stale or no code. */
export function assertBuilt(packages: string[]): void {
  for (const pkg of packages) {
    const file = fileURLToPath(new URL(`../../../packages/${pkg}/dist/index.js`, import.meta.url));
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`pnpm --filter "@artifact-refs/stress..." build\` first`);
  }
}

export interface Child<T> {
  process: ChildProcess;
  /** Resolves with the first JSON line the child prints (its "ready" line). */
  ready: Promise<T>;
  /** Every JSON line printed, in order (ready line included). */
  lines: T[];
  send(text: string): void;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; lines: T[] }>;
}

/** Spawns `node <script> <json>` and parses its stdout as JSON lines. */
export function spawnChild<T = Record<string, unknown>>(
  script: string,
  command: unknown,
  options: SpawnOptions = {},
): Child<T> {
  const child = spawn(process.execPath, [script, JSON.stringify(command)], {
    stdio: ["pipe", "pipe", "pipe"],
    ...options,
  });
  const lines: T[] = [];
  let buffer = "";
  let stderr = "";
  let resolveReady!: (v: T) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<T>((res, rej) => ((resolveReady = res), (rejectReady = rej)));
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() === "") continue;
      try {
        const parsed = JSON.parse(line) as T;
        lines.push(parsed);
        if (lines.length === 1) resolveReady(parsed);
      } catch {
        stderr += `[unparsed stdout] ${line}\n`;
      }
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.on("error", () => undefined); // a killed child's stdin
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; lines: T[] }>(
    (resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code, signal) => {
        rejectReady(new Error(`child exited (${code ?? signal}) before it was ready: ${stderr.slice(0, 2000)}`));
        resolve({ code, signal, stderr, lines });
      });
    },
  );
  ready.catch(() => undefined);
  return { process: child, ready, lines, send: (text) => child.stdin!.write(text), done };
}
