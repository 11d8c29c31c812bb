// `aref serve` as a real process: the built binary listens on 127.0.0.1, answers the API and
// the web UI with bearer tokens, and stops gracefully on SIGTERM.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, CLI_DIR, spawnCli, tempDir, tempStore } from "./helpers.js";
import { openUrl } from "../src/commands/serve.js";
import { ExecutionContext } from "@artifact-refs/context";
import { resolveReferences } from "@artifact-refs/resolve";
import { openStore } from "@artifact-refs/store-spec";

const ADMIN = "serve-admin-token-0123456789";
const SCOPED = "serve-scoped-token-012345678";
let child: ChildProcess | undefined;

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: build the CLI first (pnpm --filter @artifact-refs/cli... build)`);
});
afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

/** Starts `aref serve …` and resolves with the URL it prints on stdout. */
function serve(args: string[]): Promise<{ url: string; stderr: () => string; exited: Promise<number | null> }> {
  const proc = spawn(process.execPath, [BIN, "serve", "--port", "0", ...args], {
    cwd: CLI_DIR,
    env: { PATH: process.env.PATH, HOME: tempDir("aref-home-") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let out = "";
  let err = "";
  proc.stderr!.on("data", (c) => (err += c));
  const exited = new Promise<number | null>((r) => proc.on("exit", (code) => r(code)));
  return new Promise((resolve, reject) => {
    proc.stdout!.on("data", (c) => {
      out += c;
      const line = out.split("\n")[0]!;
      if (out.includes("\n")) resolve({ url: line.trim(), stderr: () => err, exited });
    });
    void exited.then((code) => reject(new Error(`aref serve exited with ${code}: ${err}`)));
  });
}

describe("aref serve", () => {
  it("puts the token of the URL to open in the fragment, only for a terminal", () => {
    expect(openUrl("http://127.0.0.1:8787", "tok/en+1234567890ab", true)).toBe(
      "http://127.0.0.1:8787/#token=tok%2Fen%2B1234567890ab",
    );
    expect(openUrl("http://127.0.0.1:8787", "tok-1234567890abcdef", false)).not.toContain("tok-1234567890abcdef");
    expect(openUrl("http://127.0.0.1:8787", undefined, true)).toBe("http://127.0.0.1:8787/");
    expect(openUrl("http://127.0.0.1:8787", "tok-1234567890abcdef", true)).not.toContain("?");
  });

  it("serves the API and the UI with tokens on the store, and stops gracefully on SIGTERM", async () => {
    const ws = tempDir("aref-ws-");
    mkdirSync(join(ws, "docs"));
    writeFileSync(join(ws, "docs", "guide.md"), "# Guide\nstep one\n");
    const store = tempStore();
    const server = await serve([
      "--store",
      store,
      "--workspace",
      ws,
      "--token",
      ADMIN,
      "--session-token",
      `${SCOPED}=s1,s2`,
      "--access-cache-ms",
      "250",
    ]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/sessions`)).status).toBe(401);
    const exec = await fetch(`${server.url}/api/artifacts/execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${SCOPED}`, "content-type": "application/json" },
      body: JSON.stringify({ session_id: "s1", tool_name: "read_file", tool_args: { path: "docs/guide.md" } }),
    });
    expect(exec.status).toBe(200);
    expect(((await exec.json()) as { result: string }).result).toBe("# Guide\nstep one\n");
    const stash = await fetch(`${server.url}/api/artifacts?session=s2&label=note`, {
      method: "POST",
      headers: { authorization: `Bearer ${SCOPED}`, "content-type": "text/plain" },
      body: "kept in the fs store\n",
    });
    expect(stash.status).toBe(201);
    const { short_ref } = (await stash.json()) as { short_ref: string };
    const forbidden = await fetch(`${server.url}/api/sessions/s3/artifacts`, {
      headers: { authorization: `Bearer ${SCOPED}` },
    });
    expect(forbidden.status).toBe(403);
    const page = await fetch(`${server.url}/`);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("<title>artifact-refs</title>");

    child!.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain("server stopped");
    // The UI's URL is printed with the token in the fragment, and (stderr being a pipe here) as a placeholder only.
    expect(server.stderr()).toContain(`aref: open ${server.url}/#token=<admin token>`);
    expect(server.stderr()).not.toContain(ADMIN);
    // The stash went to the store given by --store: the CLI reads it back.
    const cat = await spawnCli(["cat", short_ref, "--store", store, "--session", "s2"]);
    expect(cat.out).toBe("kept in the fs store\n");
  });

  it("rejects bad flags with a usage error and a non-loopback host without tokens", async () => {
    const badPort = await spawnCli(["serve", "--port", "http", "--store", "memory:"]);
    expect(badPort.code).toBe(2);
    expect(badPort.err).toContain("--port must be a whole number");
    const badCache = await spawnCli(["serve", "--access-cache-ms", "-5", "--store", "memory:"]);
    expect(badCache.code).toBe(2);
    expect(badCache.err).toContain("--access-cache-ms must be a whole number");
    const badToken = await spawnCli(["serve", "--session-token", "nosessions", "--store", "memory:"]);
    expect(badToken.code).toBe(2);
    const open = await spawnCli(["serve", "--host", "0.0.0.0", "--store", "memory:", "--json"]);
    expect(open.code).not.toBe(0);
    expect(JSON.parse(open.out).error.code).toBe("CONFIG_INVALID");
    const shortToken = await spawnCli(["serve", "--token", "short", "--store", "memory:", "--json"]);
    expect(JSON.parse(shortToken.out).error.code).toBe("CONFIG_INVALID");
    expect(JSON.parse(shortToken.out).error.message).toContain("at least 16 characters");
  });

  it("serves a finished run's saved session from --preload and --preload-metrics (what aref-demo --serve prints)", async () => {
    const storeDir = tempStore();
    const store = await openStore(storeDir);
    const run = new ExecutionContext({
      session: "demo-1",
      store,
      resolveReferences: (q, e) => resolveReferences(q, e),
    });
    const recorded = await run.record({
      tool_name: "read_file",
      tool_args: { path: "README.md" },
      result: `# README\n${"line of the readme\n".repeat(3_000)}`,
    });
    const dir = tempDir("aref-preload-");
    const executions = join(dir, "demo-1.executions.json");
    writeFileSync(executions, JSON.stringify(run.toJSON()));
    const metrics = join(dir, "metrics.jsonl");
    writeFileSync(
      metrics,
      `${JSON.stringify({ type: "prompt_metrics", session: "demo-1", hs_tokens: 40, hs_bytes: 160, hs_truncated: false, artifacts: 1, artifact_types: ["doc"], sys_chars: 300, user_chars: 40, est_tokens: 900, ref_files: 0, budget_violations: 0, budget_ok: true })}\n`,
    );
    const server = await serve(["--store", storeDir, "--preload", executions, "--preload-metrics", metrics]);
    const context = await fetch(`${server.url}/api/artifacts/context/demo-1`);
    expect(context.status).toBe(200);
    const body = (await context.json()) as { executions: { execution_id: string }[] };
    expect(body.executions.map((e) => e.execution_id)).toEqual([recorded.execution_id]);
    const served = await fetch(`${server.url}/api/sessions/demo-1/metrics`);
    expect(await served.text()).toContain('"est_tokens":900');
  });

  it("refuses a missing or malformed --preload file with a usage error", async () => {
    const missing = await spawnCli(["serve", "--store", "memory:", "--preload", join(tempDir(), "nope.json")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--preload");
    const notJson = join(tempDir(), "bad.json");
    writeFileSync(notJson, "{not json");
    const bad = await spawnCli(["serve", "--store", "memory:", "--preload", notJson]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("is not JSON");
  });
});
