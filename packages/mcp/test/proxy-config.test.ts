// serveProxyStdio in this process (from source), over in-process streams, in front of the real
// fake upstream process: the externalization thresholds come from the AREF_* variables.
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { openStore } from "@artifact-refs/store-spec";
import { afterEach, describe, expect, it } from "vitest";
import { serveProxyStdio } from "../src/index.js";
import { FAKE, tempStore, texts } from "./proxy-helpers.js";

/** A client transport over two streams (what a process's stdin/stdout would carry). */
function streamTransport(toServer: PassThrough, fromServer: PassThrough): Transport {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    start: async () => {
      fromServer.on("data", (chunk: Buffer) => {
        buffer.append(chunk);
        for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) transport.onmessage?.(m);
      });
    },
    send: async (message: JSONRPCMessage) => void toServer.write(serializeMessage(message)),
    close: async () => {
      toServer.end();
      transport.onclose?.();
    },
  };
  return transport;
}

describe("serveProxyStdio reads its thresholds from the AREF_* variables", () => {
  const saved = process.env.AREF_MAX_INLINE_CHARS;
  afterEach(() => {
    if (saved === undefined) delete process.env.AREF_MAX_INLINE_CHARS;
    else process.env.AREF_MAX_INLINE_CHARS = saved;
  });

  it("with AREF_MAX_INLINE_CHARS=5 even the small result (and its structuredContent) is stored and linked", async () => {
    process.env.AREF_MAX_INLINE_CHARS = "5";
    const dir = tempStore();
    const store = await openStore(dir.dir);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const serving = serveProxyStdio({
      store,
      session: "s1",
      upstream: { command: process.execPath, args: [FAKE] },
      stdin,
      stdout,
    });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(streamTransport(stdin, stdout));
    const r = (await client.callTool({ name: "small", arguments: { n: 1 } })) as CallToolResult;
    expect(r.content.map((c) => c.type)).toEqual(["text", "resource_link", "text", "resource_link"]);
    expect(texts(r)[0]).toMatch(/from small was 20 bytes \(text\/plain\): stored as art:/);
    expect(r.structuredContent).toBeUndefined();
    await client.close();
    await serving;
    await store.close();
    dir.cleanup();
  });
});
