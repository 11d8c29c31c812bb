// Following `next` through the MCP server, with the official client over the SDK's linked
// transports: each part is asked with the selector the previous answer named (in its text and in
// structuredContent), and the parts rebuild the content or the full match list.
import { type FetchPart, followCases, followNext } from "@artifact-refs/tooling/testing/follow-next";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArefMcpServer } from "../src/index.js";

const store = new ArtifactStore({ driver: new MemoryDriver() });
let client: Client;
let selectorSchema: { properties: Record<string, { minimum?: number; maximum?: number }> };

beforeAll(async () => {
  const server = createArefMcpServer({ store, session: "s1" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: "follow-next", version: "1.0.0" });
  await client.connect(clientSide);
  const tools = await client.listTools();
  const get = tools.tools.find((t) => t.name === "artifacts_get")!;
  selectorSchema = (get.inputSchema.properties as Record<string, typeof selectorSchema>).selector!;
});
afterAll(async () => {
  await client?.close();
});

describe("artifacts_get over MCP follows next to the end", () => {
  for (const c of followCases()) {
    it(c.name, async () => {
      const put = await store.put(c.content, { session: "s1", mime: c.mime, label: c.name });
      const fetch: FetchPart = async (selector) => {
        // The input schema the client sees lists every key of the selector, within its bounds.
        for (const [key, value] of Object.entries(selector)) {
          const prop = selectorSchema.properties[key];
          expect(prop, `selector key ${key} is not in the MCP input schema`).toBeDefined();
          if (typeof value === "number" && prop?.maximum !== undefined) expect(value).toBeLessThanOrEqual(prop.maximum);
        }
        const r = (await client.callTool({
          name: "artifacts_get",
          arguments: { ref: put.shortRef, selector },
        })) as CallToolResult;
        expect(r.isError ?? false, JSON.stringify(r.content).slice(0, 300)).toBe(false);
        const text = (r.content[0] as { text: string }).text;
        const next = (r.structuredContent as { next?: Record<string, unknown> & { mode: string } }).next;
        if (next !== undefined) {
          // The model reads the call for the next part in plain text: the same selector.
          const note = (r.content[1] as { text: string }).text;
          expect(note).toContain(JSON.stringify({ ref: put.shortRef, selector: next }));
        }
        return { text, next };
      };
      c.check(await followNext(fetch, c.first), c.content);
    });
  }
});
