// `aref mcp` as a real process: the built binary speaks MCP (JSON-RPC 2.0, one message per
// line) on stdin/stdout; the test is the client, writing the protocol's own messages.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, CLI_DIR, run, tempDir, tempStore } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(BIN))
    throw new Error(`${BIN} is missing: build the CLI first (pnpm --filter @artifact-refs/cli... build)`);
});

interface Rpc {
  id?: number;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** Starts `aref mcp …`; `request` sends one JSON-RPC request and resolves with its response. */
function startMcp(args: string[]) {
  const proc = spawn(process.execPath, [BIN, "mcp", ...args], {
    cwd: CLI_DIR,
    env: { PATH: process.env.PATH, HOME: tempDir("aref-home-") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  proc.stderr!.on("data", (c) => (err += c));
  const stdoutLines: string[] = [];
  const waiting = new Map<number, (m: Rpc) => void>();
  createInterface({ input: proc.stdout! }).on("line", (line) => {
    stdoutLines.push(line);
    const message = JSON.parse(line) as Rpc;
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  let next = 1;
  const request = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Rpc>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      proc.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const notify = (method: string) => proc.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return { proc, request, notify, exited, stdoutLines, stderr: () => err };
}

describe("aref mcp", () => {
  it("serves a stored artifact to an MCP client over stdio and exits 0 when stdin closes", async () => {
    const store = tempStore();
    const log = Array.from({ length: 3000 }, (_, i) =>
      i === 1234 ? "ERROR disk full on /dev/sda1" : `line ${i} ${"x".repeat(30)}`,
    ).join("\n");
    const stash = await run(["stash", "-", "--store", store, "--session", "s1", "--label", "build log", "--json"], {
      stdin: log,
    });
    expect(stash.code).toBe(0);
    const id = stash.json().artifact_id as string;

    const mcp = startMcp(["--store", store, "--session", "s1", "--max-chars", "2000"]);
    const init = await mcp.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "cli-test", version: "1" },
    });
    expect(init.result).toMatchObject({
      serverInfo: { name: "artifact-refs" },
      capabilities: { tools: {}, resources: { listChanged: true } },
    });
    mcp.notify("notifications/initialized");
    const tools = await mcp.request("tools/list");
    expect((tools.result!.tools as Array<{ name: string }>).map((t) => t.name).sort()).toEqual([
      "artifacts_get",
      "artifacts_list",
      "artifacts_resolve",
      "artifacts_stash",
    ]);
    const got = await mcp.request("tools/call", {
      name: "artifacts_get",
      arguments: { ref: `art:${id.slice(0, 12)}`, selector: { mode: "grep", pattern: "ERROR", context: 0 } },
    });
    const answer = { text: (got.result!.content as Array<{ text: string }>)[0]!.text };
    expect(answer.text).toContain("ERROR disk full on /dev/sda1");
    const whole = await mcp.request("tools/call", { name: "artifacts_get", arguments: { ref: id } });
    const bounded = {
      text: (whole.result!.content as Array<{ text: string }>)[0]!.text,
      truncated: (whole.result!.structuredContent as { truncated: boolean }).truncated,
    };
    expect(bounded.text.length).toBeLessThanOrEqual(2000);
    expect(bounded.truncated).toBe(true);
    expect(whole.result!.content).toContainEqual(
      expect.objectContaining({ type: "resource_link", uri: `aref://sha256/${id}` }),
    );
    const resources = await mcp.request("resources/list");
    expect(resources.result!.resources).toEqual([
      expect.objectContaining({ uri: `aref://sha256/${id}`, title: "build log", size: Buffer.byteLength(log) }),
    ]);
    const bad = await mcp.request("resources/read", { uri: "aref://sha256/nothex" });
    expect(bad.error?.message).toMatch(/INVALID_HANDLE/);
    // stdout carried only JSON-RPC messages; the banner went to stderr.
    expect(mcp.stdoutLines.every((l) => JSON.parse(l).jsonrpc === "2.0")).toBe(true);
    expect(mcp.stderr()).toContain("aref: MCP over stdio, session s1");
    mcp.proc.stdin!.end();
    expect(await mcp.exited).toBe(0);
  });

  it("rejects bad flags with usage errors", async () => {
    const session = await run(["mcp", "--session", "has space"]);
    expect(session.code).not.toBe(0);
    expect(session.err).toMatch(/invalid session id/);
    const max = await run(["mcp", "--max-chars", "zero"]);
    expect(max.code).toBe(2);
    expect(max.err).toMatch(/--max-chars must be a whole number/);
    const help = await run(["mcp", "--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: aref mcp/);
    expect(help.out).toContain("aref://sha256/<hex>");
  });

  it("in-process (no process streams) it refuses stdio and says to use --http", async () => {
    const r = await run(["mcp", "--store", "memory:"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/needs the process's standard input and output/);
  });

  it("--wrap -- node <server>: proxies another MCP server, storing its large result and passing the small one as it is", async () => {
    const store = tempStore();
    const fake = fileURLToPath(new URL("../../../packages/mcp/test/fixtures/fake-upstream.mjs", import.meta.url));
    const mcp = startMcp(["--store", store, "--session", "s1", "--wrap", "--", process.execPath, fake]);
    const init = await mcp.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "cli-test", version: "1" },
    });
    expect(init.result).toMatchObject({
      serverInfo: { name: "fake-upstream" },
      capabilities: { tools: { listChanged: true }, resources: {} },
    });
    mcp.notify("notifications/initialized");
    const small = await mcp.request("tools/call", { name: "small", arguments: { n: 3 } });
    expect(small.result).toEqual({
      content: [{ type: "text", text: "small answer n=3 ✓" }],
      structuredContent: { n: 3 },
      _meta: { fake: true },
    });
    const big = await mcp.request("tools/call", { name: "big", arguments: {} });
    const content = big.result!.content as Array<{ type: string; text?: string; uri?: string }>;
    expect(JSON.stringify(big.result).length).toBeLessThan(8000);
    expect(content.map((c) => c.type)).toEqual(["text", "resource_link"]);
    expect(content[1]!.uri).toMatch(/^aref:\/\/sha256\/[0-9a-f]{64}$/);
    mcp.proc.stdin!.end();
    expect(await mcp.exited).toBe(0);
    expect(mcp.stderr()).toMatch(/MCP proxy of .*fake-upstream\.mjs over stdio, session s1/);
  });

  it("--wrap/--upstream usage errors", async () => {
    expect((await run(["mcp", "--store", "memory:", "--wrap"])).err).toMatch(
      /--wrap needs the upstream server's command after --/,
    );
    expect((await run(["mcp", "--store", "memory:", "--wrap", "--http", "--", "x"])).err).toMatch(/drop --http/);
    expect((await run(["mcp", "--store", "memory:", "--upstream-header", "A: b"])).err).toMatch(/goes with --upstream/);
    const bad = await run([
      "mcp",
      "--store",
      "memory:",
      "--upstream",
      "http://127.0.0.1:9/mcp",
      "--upstream-header",
      "nocolon",
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/is not "Name: value"/);
  });
});
