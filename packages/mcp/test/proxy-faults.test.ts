import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "./helpers.js";
import { connect, FAKE, proxyArgs, tempStore, texts, type Connected } from "./proxy-helpers.js";

// Real faults of a real upstream process: it hangs, exits mid-call, or writes a line that is not JSON-RPC.
describe("aref-mcp proxy: a broken upstream never hangs the client", () => {
  let proxied: Connected | undefined;
  let store: ReturnType<typeof tempStore> | undefined;
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first`);
  });
  afterEach(async () => {
    await proxied?.close();
    store?.cleanup();
    proxied = undefined;
  });
  const start = async (...flags: string[]) => {
    store = tempStore();
    proxied = await connect(proxyArgs(store.dir, ...flags, "--wrap", "--", process.execPath, FAKE));
    return proxied.client;
  };
  const small = async () => (await proxied!.client.callTool({ name: "small", arguments: { n: 1 } })) as CallToolResult;

  it("a hanging call gets a timeout error naming the tool and the limit; the next call still works", async () => {
    const client = await start("--timeout", "4000");
    await expect(client.callTool({ name: "hang", arguments: {} }, undefined, { timeout: 30_000 })).rejects.toThrow(
      /MCP error -32001: the upstream MCP server \(.*fake-upstream\.mjs\) did not answer tools\/call \(tool hang\) within 4000 ms; the request was cancelled/,
    );
    expect(texts(await small())).toEqual(["small answer n=1 ✓"]);
  });

  it("an upstream that exits mid-call: that call fails with a clear error, later calls fail at once, nothing is restarted", async () => {
    const client = await start();
    await expect(client.callTool({ name: "crash", arguments: {} }, undefined, { timeout: 30_000 })).rejects.toThrow(
      /MCP error -32000: the upstream MCP server \(.*\) exited or closed the connection before answering; tools\/call \(tool crash\) got no answer/,
    );
    await expect(client.callTool({ name: "small", arguments: {} }, undefined, { timeout: 30_000 })).rejects.toThrow(
      /is not running: it exited or closed the connection; tools\/call was not sent/,
    );
    // The proxy's own tools still answer.
    const list = (await client.callTool({ name: "artifacts_list", arguments: {} })) as CallToolResult;
    expect(texts(list)[0]).toMatch(/session s1 has no artifacts yet/);
  });

  it("a malformed JSON-RPC line: the pending call fails with an error saying so", async () => {
    const client = await start("--timeout", "60000");
    await expect(client.callTool({ name: "garbage", arguments: {} }, undefined, { timeout: 30_000 })).rejects.toThrow(
      /the upstream MCP server \(.*\) sent a malformed JSON-RPC message .*tools\/call \(tool garbage\) got no answer/,
    );
  });

  it("bad command lines: clear usage errors, exit 2", () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [BIN, "--store", "memory:", ...args], { encoding: "utf8", timeout: 20_000 });
    expect(run("--wrap").stderr).toMatch(/--wrap needs the upstream server's command after --/);
    expect(run("--wrap", "--upstream", "http://127.0.0.1:1/mcp", "--", "x").stderr).toMatch(/not both/);
    expect(run("--upstream", "http://127.0.0.1:1/mcp", "--upstream-header", "no colon").stderr).toMatch(
      /is not "Name: value"/,
    );
    expect(run("--upstream-header", "A: b").stderr).toMatch(/goes with --upstream/);
    expect(run("--upstream", "ftp://x/mcp").stderr).toMatch(/must be an http\(s\) URL/);
    const missing = run("--wrap", "--", "/nonexistent/mcp-server");
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/ENOENT|nonexistent/);
  });
});
