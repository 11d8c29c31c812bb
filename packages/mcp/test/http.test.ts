import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { useHttpFixture } from "./helpers.js";

const served = useHttpFixture();

describe("streamable HTTP (stateless) with the official client", () => {
  it("serves the same tools and resources on 127.0.0.1", async () => {
    expect(served.http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.http.url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "artifacts_get",
      "artifacts_list",
      "artifacts_resolve",
      "artifacts_stash",
    ]);
    const r = (await client.callTool({
      name: "artifacts_get",
      arguments: { ref: served.fx.ids.log, selector: { mode: "grep", pattern: "^FAIL", context: 0 } },
    })) as CallToolResult;
    const answer = { text: (r.content[0] as { text: string }).text };
    expect(answer.text.match(/FAIL/g)).toHaveLength(4);
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(5);
    await client.close();
  });

  it("answers other paths with 404 and GET with 405", async () => {
    expect((await fetch(served.http.url.replace("/mcp", "/other"), { method: "POST" })).status).toBe(404);
    expect((await fetch(served.http.url)).status).toBe(405);
    const bad = await fetch(served.http.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
  });
});
