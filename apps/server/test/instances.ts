import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("./fixtures/serve.mjs", import.meta.url));
const DIST = fileURLToPath(new URL("../dist/index.js", import.meta.url));

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  stderr: () => string;
}

/** Starts a server in its own process (built dist/) and resolves once it listens. */
export function spawnServer(options: { store: string; workspace: string; tokens: unknown }): Promise<ServerProcess> {
  if (!existsSync(DIST))
    throw new Error(
      `${DIST} is missing: build the server first (pnpm exec turbo run build --filter=@artifact-refs/server...)`,
    );
  const child = spawn(process.execPath, [FIXTURE, JSON.stringify(options)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: process.env,
  });
  let out = "";
  let err = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stderr!.on("data", (c) => (err += String(c)));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (c) => {
      out += String(c);
      const line = out.split("\n")[0]!;
      if (out.includes("\n"))
        resolve({ url: (JSON.parse(line) as { url: string }).url, process: child, exited, stderr: () => err });
    });
    void exited.then(() => reject(new Error(`server process exited before listening: ${err.slice(0, 2_000)}`)));
  });
}
