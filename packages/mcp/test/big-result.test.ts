// A 5 MB tool result stashed through the MCP server is stored whole (chunked by the store), and
// artifacts_get pages through all of it, byte for byte (in-process, over the SDK's linked transports).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { describe, expect, it } from "vitest";
import { createArefMcpServer } from "../src/index.js";

describe("a 5 MB tool result over MCP", () => {
  it("is stored whole by artifacts_stash, and artifacts_get pages through all of it", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const server = createArefMcpServer({ store, session: "s1", maxChars: 100_000 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "big-test", version: "1.0.0" });
    await client.connect(clientSide);
    const lines: string[] = [];
    for (let i = 1, total = 0; total < 5 * 1024 * 1024; i++) {
      const line = `line ${i} ${i % 101 === 0 ? "ERROR" : "ok"} ${"·".repeat(i % 40)}\n`;
      lines.push(line);
      total += Buffer.byteLength(line);
    }
    const content = lines.join("");
    const stash = (await client.callTool({
      name: "artifacts_stash",
      arguments: { content, label: "big" },
    })) as CallToolResult;
    expect(stash.isError ?? false).toBe(false);
    const ref = /art:[0-9a-f]{12,}/.exec(JSON.stringify(stash.content))![0];
    expect((await store.getRecord(ref, { session: "s1" })).chunked).toBeDefined();
    let selector: unknown = { mode: "range", start: 1, maxChars: 100_000 };
    const pages: string[] = [];
    while (selector !== undefined) {
      const r = (await client.callTool({ name: "artifacts_get", arguments: { ref, selector } })) as CallToolResult;
      // Plain text first (the selected text exactly); the answer's fields are in structuredContent.
      const text = (r.content[0] as { text: string }).text;
      pages.push(text);
      selector = (r.structuredContent as { next?: unknown }).next;
    }
    expect(pages.join("")).toBe(content);
    await client.close();
  });
});
