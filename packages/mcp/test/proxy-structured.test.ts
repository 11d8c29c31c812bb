// McpProxy in this process between the official client and an upstream built on the official
// SDK's Server (both over in-memory transports): tools with an outputSchema keep it and their
// structuredContent (small or large), and a large isError result is stored like any other.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { openStore } from "@artifact-refs/store-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpProxy } from "../src/index.js";
import { links, pageThrough, tempStore, texts } from "./proxy-helpers.js";

const itemsSchema = {
  type: "object",
  properties: {
    items: {
      type: "array",
      items: {
        type: "object",
        properties: { id: { type: "integer" }, name: { type: "string" } },
        required: ["id", "name"],
      },
    },
  },
  required: ["items"],
  additionalProperties: false,
};

const items = (n: number) => ({ items: Array.from({ length: n }, (_, i) => ({ id: i, name: `item ${i}` })) });

/** 200 KB of a stack-dump-like error text, with the cause on the last line. */
const errorText = (() => {
  const lines = ["Error: the build failed"];
  for (let i = 0; lines.join("\n").length < 200_000; i++) lines.push(`    at frame${i} (src/mod${i % 50}.ts:${i}:7)`);
  lines.push("Caused by: ENOSPC: no space left on device");
  return lines.join("\n");
})();

function upstreamServer(): Server {
  const server = new Server({ name: "typed-upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: "typed",
        inputSchema: { type: "object", properties: { n: { type: "integer" } } },
        outputSchema: itemsSchema,
      },
      { name: "untyped", inputSchema: { type: "object", properties: { n: { type: "integer" } } } },
      { name: "big_error", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const n = Number(req.params.arguments?.n ?? 0);
    if (req.params.name === "big_error") return { isError: true, content: [{ type: "text", text: errorText }] };
    const data = items(n);
    // The serialized JSON in a text item too, as the spec recommends (pretty-printed: many lines).
    return { content: [{ type: "text", text: JSON.stringify(data, null, 2) }], structuredContent: data };
  });
  return server;
}

describe("McpProxy: outputSchema, structuredContent and large error results, with the official client", () => {
  let client: Client;
  let direct: Client;
  let proxy: McpProxy;
  let dir: ReturnType<typeof tempStore>;
  let store: Awaited<ReturnType<typeof openStore>>;

  beforeAll(async () => {
    dir = tempStore();
    store = await openStore(dir.dir);
    const [up, upServer] = InMemoryTransport.createLinkedPair();
    await upstreamServer().connect(upServer);
    const [down, downClient] = InMemoryTransport.createLinkedPair();
    proxy = new McpProxy({ upstream: up, upstreamName: "in-memory", downstream: down, store, session: "s1" });
    await proxy.start();
    client = new Client({ name: "t", version: "1" });
    await client.connect(downClient);
    const [d1, d2] = InMemoryTransport.createLinkedPair();
    await upstreamServer().connect(d2);
    direct = new Client({ name: "direct", version: "1" });
    await direct.connect(d1);
  });
  afterAll(async () => {
    await client?.close();
    await direct?.close();
    await proxy?.close();
    await store?.close();
    dir?.cleanup();
  });

  it("keeps the upstream tools' outputSchema in tools/list", async () => {
    const viaProxy = (await client.listTools()).tools;
    const upstream = (await direct.listTools()).tools;
    expect(viaProxy.slice(0, 3)).toEqual(upstream);
    expect(viaProxy.find((t) => t.name === "typed")?.outputSchema).toEqual(itemsSchema);
  });

  it("a small typed result passes through byte for byte and validates against its schema", async () => {
    await client.listTools();
    await direct.listTools();
    const r = await client.callTool({ name: "typed", arguments: { n: 2 } });
    expect(JSON.stringify(r)).toBe(JSON.stringify(await direct.callTool({ name: "typed", arguments: { n: 2 } })));
    expect(r.structuredContent).toEqual(items(2));
  });

  it("a large typed result keeps its conforming structuredContent; the text item is stored and linked", async () => {
    await client.listTools(); // the client validates structuredContent against the schema it listed
    const r = (await client.callTool({ name: "typed", arguments: { n: 5000 } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toEqual(items(5000));
    const text = texts(r).join("\n");
    expect(text.length).toBeLessThan(8_000);
    expect(text).toMatch(/from typed was [\d,]+ bytes .*stored as art:/);
    expect(links(r).length).toBeGreaterThanOrEqual(1);
    const paged = await pageThrough(client, links(r)[0]!.name);
    expect(paged.text).toBe(JSON.stringify(items(5000), null, 2)); // the text item, as the upstream sent it
  });

  it("a large structuredContent of a tool without outputSchema is stored, linked and dropped", async () => {
    const r = (await client.callTool({ name: "untyped", arguments: { n: 5000 } })) as CallToolResult;
    expect(r.structuredContent).toBeUndefined();
    expect(texts(r).join("\n")).toMatch(/the structured content from untyped was/);
    expect(JSON.stringify(r).length).toBeLessThan(12_000);
  });

  it("a 200 KB isError result is stored: the flag stays, the preview shows the error, artifacts_get pages through all of it", async () => {
    const r = (await client.callTool({ name: "big_error", arguments: {} })) as CallToolResult;
    expect(r.isError).toBe(true);
    const text = texts(r).join("\n");
    expect(JSON.stringify(r).length).toBeLessThan(8_000);
    expect(text).toMatch(/the error result from big_error was [\d,]+ bytes/);
    expect(text).toContain("Error: the build failed");
    const link = links(r)[0]!;
    const paged = await pageThrough(client, link.name);
    expect(paged.text).toBe(errorText);
    expect(paged.text.endsWith("Caused by: ENOSPC: no space left on device")).toBe(true);
  });
});
