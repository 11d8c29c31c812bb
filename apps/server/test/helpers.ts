import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { startServer, type RunningServer, type StartOptions } from "../src/index.js";

export const ADMIN = "admin-token-0123456789abcdef";
export const TOKEN_A = "token-a-0123456789abcdefghij";
export const TOKEN_B = "token-b-0123456789abcdefghij";
export const TOKEN_AB = "token-ab-0123456789abcdefghi";

/** A workspace with a README, a source tree, a secret outside it and symlinks pointing out. */
export async function makeWorkspace(): Promise<{ root: string; outside: string; cleanup: () => Promise<void> }> {
  const base = await mkdtemp(join(tmpdir(), "aref-server-"));
  const root = join(base, "ws");
  const outside = join(base, "outside");
  await mkdir(join(root, "src", "lib"), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(
    join(root, "README.md"),
    "# My Project\n\nThis is a sample project about artifact references.\nIt has a TODO list.\n",
  );
  await writeFile(
    join(root, "src", "main.py"),
    "import utils\n\ndef main():\n    # TODO: wire the config\n    print('hello')\n",
  );
  await writeFile(join(root, "src", "lib", "utils.py"), "def helper():\n    return 42\n");
  await mkdir(join(root, "logs"));
  await writeFile(
    join(root, "logs", "big.log"),
    Array.from({ length: 5_000 }, (_, i) => `2026-11-22T10:00:00Z INFO entry ${i + 1} of the big log`).join("\n"),
  );
  await writeFile(
    join(root, "config.json"),
    JSON.stringify({ name: "demo", port: 8080, features: ["a", "b"] }, null, 2),
  );
  await writeFile(join(outside, "secret.txt"), "TOP-SECRET outside the workspace\n");
  await symlink(join(outside, "secret.txt"), join(root, "escape-link.txt"));
  await symlink(outside, join(root, "escape-dir"));
  return { root, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export interface Harness {
  server: RunningServer;
  url: string;
  store: ArtifactStore;
  workspace: string;
  close: () => Promise<void>;
}

export async function startHarness(options: Partial<StartOptions> = {}): Promise<Harness> {
  const ws = await makeWorkspace();
  const store = new ArtifactStore({ driver: new MemoryDriver() });
  const server = await startServer({
    store,
    workspace: ws.root,
    tokens: {
      admin: ADMIN,
      sessions: { [TOKEN_A]: ["sess-a"], [TOKEN_B]: ["sess-b"], [TOKEN_AB]: ["sess-a", "sess-b"] },
    },
    rateLimit: false,
    ui: false,
    ...options,
  });
  return {
    server,
    url: server.url,
    store,
    workspace: ws.root,
    close: async () => {
      await server.close();
      await ws.cleanup();
    },
  };
}

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** A real HTTP request to the server (fetch over 127.0.0.1). */
export async function call(url: string, init: RequestInit & { token?: string } = {}): Promise<Res> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  const response = await fetch(url, { ...init, headers });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const jsonInit = (body: unknown, token?: string, method = "POST"): RequestInit & { token?: string } => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
  ...(token ? { token } : {}),
});
