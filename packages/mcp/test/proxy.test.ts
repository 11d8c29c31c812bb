import { existsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bigText, imageBytes, serveFakeHttp } from "./fixtures/fake-upstream.mjs";
import { BIN } from "./helpers.js";
import { connect, FAKE, links, pageThrough, proxyArgs, tempStore, texts, type Connected } from "./proxy-helpers.js";

const call = async (
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  onprogress?: (p: Progress) => void,
) => (await client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : {})) as CallToolResult;

/** The same acceptance run over `--wrap -- node fake` and over `--upstream <url>` of the fake on 127.0.0.1. */
function acceptance(mode: "wrap" | "upstream") {
  describe(`aref-mcp --${mode}: the official client through the proxy`, () => {
    let direct: Connected;
    let proxied: Connected;
    let store: ReturnType<typeof tempStore>;
    let http: Awaited<ReturnType<typeof serveFakeHttp>> | undefined;

    beforeAll(async () => {
      if (!existsSync(BIN))
        throw new Error(`${BIN} is missing: build the package first (pnpm --filter @artifact-refs/mcp... build)`);
      store = tempStore();
      direct = await connect([FAKE]);
      if (mode === "wrap") {
        proxied = await connect(proxyArgs(store.dir, "--wrap", "--", process.execPath, FAKE));
      } else {
        http = await serveFakeHttp();
        proxied = await connect(
          proxyArgs(store.dir, "--upstream", http.url, "--upstream-header", "X-Fake-Key: secret"),
        );
      }
    });
    afterAll(async () => {
      await proxied?.close();
      await direct?.close();
      await http?.close();
      store?.cleanup();
    });

    it("forwards the upstream's tools page by page (cursor kept) and adds artifacts_get and artifacts_list on the last page", async () => {
      const first = await proxied.client.listTools();
      const directFirst = await direct.client.listTools();
      expect(first).toEqual(directFirst);
      expect(first.nextCursor).toBe("page-2");
      const second = await proxied.client.listTools({ cursor: first.nextCursor });
      expect(second.tools.map((t) => t.name)).toEqual([
        "image",
        "hang",
        "crash",
        "garbage",
        "json",
        "artifacts_get",
        "artifacts_list",
      ]);
      const get = second.tools.find((t) => t.name === "artifacts_get")!;
      expect(JSON.stringify(get.inputSchema)).not.toMatch(/9007199254740991/);
      expect(proxied.client.getInstructions()).toMatch(/^fake upstream instructions\n\n.*artifacts_get/s);
    });

    it("the 300 KB result arrives as a preview under 8,000 chars with a resource_link; artifacts_get pages concatenate to the upstream bytes", {
      timeout: 240_000,
    }, async () => {
      const r = await call(proxied.client, "big");
      expect(r.isError).toBeFalsy();
      expect(JSON.stringify(r).length).toBeLessThan(8000);
      const [link] = links(r);
      expect(link).toMatchObject({
        type: "resource_link",
        uri: expect.stringMatching(/^aref:\/\/sha256\/[0-9a-f]{64}$/),
        name: expect.stringMatching(/^art:[0-9a-f]{12,}$/),
        size: Buffer.byteLength(bigText()),
      });
      const text = texts(r).join("\n");
      expect(text).toContain(`call artifacts_get with {"ref":"${link!.name}"`);
      expect(text).toMatch(/\npreview:\n[\s\S]*lorem ipsum/); // a structural preview of the content
      expect(text).not.toMatch(/\\n|\\"/); // plain text, not escaped JSON
      const { text: whole, pages, longest } = await pageThrough(proxied.client, link!.name);
      expect(whole).toBe(bigText());
      expect(pages).toBeGreaterThan(30);
      expect(longest).toBeLessThanOrEqual(8000);
      // The resource reads back the same bytes.
      const read = await proxied.client.readResource({ uri: link!.uri });
      expect((read.contents[0] as { text: string }).text).toBe(bigText());
      // And it is listed among the resources, after the upstream's own.
      const { resources } = await proxied.client.listResources();
      expect(resources[0]).toEqual({ uri: "fake://readme", name: "readme", mimeType: "text/plain" });
      expect(resources.map((x) => x.uri)).toContain(link!.uri);
    });

    it("a small result, an isError result and a JSON-RPC error arrive exactly as the upstream sent them", async () => {
      for (const [name, args] of [
        ["small", { n: 7 }],
        ["broken", {}],
      ] as const) {
        expect(JSON.stringify(await call(proxied.client, name, args))).toBe(
          JSON.stringify(await call(direct.client, name, args)),
        );
      }
      const viaProxy = await call(proxied.client, "fail").catch((e: Error & { code?: number; data?: unknown }) => e);
      const straight = await call(direct.client, "fail").catch((e: Error & { code?: number; data?: unknown }) => e);
      expect(viaProxy).toBeInstanceOf(Error);
      expect({
        message: (viaProxy as Error).message,
        code: (viaProxy as { code?: number }).code,
        data: (viaProxy as { data?: unknown }).data,
      }).toEqual({
        message: (straight as Error).message,
        code: (straight as { code?: number }).code,
        data: (straight as { data?: unknown }).data,
      });
      // Unchanged means unchanged: the SDK upstream's McpError already carries its "MCP error" prefix, and the client adds one.
      expect((viaProxy as Error).message).toMatch(/fake failure: n must be positive$/);
    });

    it("progress notifications arrive unchanged, before the result", async () => {
      // Progress params (the token is each client's own request id) and where the result came.
      const progressOf = (c: Connected, from: number): unknown[] =>
        c.wire
          .slice(from)
          .flatMap((m): unknown[] =>
            m.method === "notifications/progress"
              ? [{ ...(m.params as Record<string, unknown>), progressToken: "(the request's)" }]
              : "result" in m
                ? ["result"]
                : [],
          );
      const [p0, d0] = [proxied.wire.length, direct.wire.length];
      const r = await call(proxied.client, "slow", {}, () => undefined);
      await call(direct.client, "slow", {}, () => undefined);
      expect(texts(r)).toEqual(["slow done"]);
      const seen = progressOf(proxied, p0);
      expect(seen).toEqual(progressOf(direct, d0));
      expect(seen.map((p) => (typeof p === "string" ? p : (p as { message: string }).message))).toEqual([
        "step 1",
        "step 2",
        "step 3",
        "result",
      ]);
    });

    it("binary image content is stored as is and linked, never decoded as text", async () => {
      const r = await call(proxied.client, "image");
      expect(r.content[0]).toEqual({ type: "text", text: "a picture" });
      const [link] = links(r);
      expect(link).toMatchObject({ mimeType: "image/png", size: imageBytes().length });
      expect(texts(r).join("\n")).toMatch(/binary: read the resource aref:\/\/sha256\//);
      const read = await proxied.client.readResource({ uri: link!.uri });
      expect(read.contents[0]).toMatchObject({ mimeType: "image/png" });
      expect(Buffer.from((read.contents[0] as { blob: string }).blob, "base64").equals(imageBytes())).toBe(true);
      const get = await call(proxied.client, "artifacts_get", { ref: link!.name });
      expect(get.isError).toBe(true);
      expect(texts(get)[0]).toMatch(/^UNSUPPORTED: .*binary/);
      expect(texts(get)[0]).not.toMatch(/aref (cat|list)/);
    });

    it("resources, prompts and a resource read pass through", async () => {
      expect(await proxied.client.readResource({ uri: "fake://readme" })).toEqual(
        await direct.client.readResource({ uri: "fake://readme" }),
      );
      expect(await proxied.client.listPrompts()).toEqual(await direct.client.listPrompts());
      expect(await proxied.client.getPrompt({ name: "greet", arguments: { who: "ada" } })).toEqual(
        await direct.client.getPrompt({ name: "greet", arguments: { who: "ada" } }),
      );
      const straight = await direct.client.readResource({ uri: "fake://nope" }).catch((e: Error) => e.message);
      await expect(proxied.client.readResource({ uri: "fake://nope" })).rejects.toThrow(straight as string);
    });

    it("artifacts_list and errors name the tools the model can call, once prefixed", async () => {
      const list = await call(proxied.client, "artifacts_list");
      expect(texts(list)[0]).toMatch(/artifact\(s\) in session s1/);
      const missing = await call(proxied.client, "artifacts_get", { ref: `art:${"0".repeat(12)}` });
      expect(missing.isError).toBe(true);
      expect(texts(missing)[0]).toMatch(/^NOT_FOUND: .*\nhint: call artifacts_list/);
      await expect(proxied.client.readResource({ uri: `aref://sha256/${"0".repeat(64)}` })).rejects.toThrow(
        /^MCP error -32602: NOT_FOUND: [\s\S]*artifacts_list/,
      );
      await expect(proxied.client.readResource({ uri: `aref://sha256/${"0".repeat(64)}` })).rejects.not.toThrow(
        /MCP error -32602: MCP error/,
      );
    });
  });
}

acceptance("wrap");
acceptance("upstream");
