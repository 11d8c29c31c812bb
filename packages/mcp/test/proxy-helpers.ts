import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { BIN } from "./helpers.js";

export const FAKE = fileURLToPath(new URL("./fixtures/fake-upstream.mjs", import.meta.url));

type Content = CallToolResult["content"][number];
export const texts = (r: CallToolResult) =>
  r.content.filter((c): c is Extract<Content, { type: "text" }> => c.type === "text").map((c) => c.text);
export const links = (r: CallToolResult) =>
  r.content.filter((c): c is Extract<Content, { type: "resource_link" }> => c.type === "resource_link");

export interface Connected {
  client: Client;
  /** Every message the client's transport received, in order (what came over the wire). */
  wire: Array<Record<string, unknown>>;
  stderr: () => string;
  close(): Promise<void>;
}

/** The official client over stdio to `node <args…>` (the proxy's bin or the fake itself). */
export async function connect(args: string[], env?: Record<string, string>): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: "pipe",
    ...(env ? { env } : {}),
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "proxy-test", version: "1.0.0" });
  await client.connect(transport);
  // Record at the transport: the SDK client runs progress handlers in a microtask and drops a
  // progress notification that arrives in the same read as its response (its handler is gone by then).
  const wire: Array<Record<string, unknown>> = [];
  const deliver = transport.onmessage!;
  transport.onmessage = (message: JSONRPCMessage) => {
    wire.push(message as unknown as Record<string, unknown>);
    deliver(message);
  };
  return { client, wire, stderr: () => stderr, close: () => client.close() };
}

/** A temp dir for a store, removed by the returned cleanup. */
export function tempStore(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "aref-proxy-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The proxy bin's arguments for a store dir, session s1, and the given mode flags. */
export const proxyArgs = (dir: string, ...mode: string[]) => [BIN, "--store", dir, "--session", "s1", ...mode];

/** Pages through an artifact with artifacts_get range selectors, following `next`; returns the concatenation and the page count. */
export async function pageThrough(
  client: Client,
  ref: string,
): Promise<{ text: string; pages: number; longest: number }> {
  let selector: Record<string, unknown> | undefined = { mode: "range", start: 1 };
  let text = "";
  let pages = 0;
  let longest = 0;
  while (selector !== undefined) {
    const r = (await client.callTool({ name: "artifacts_get", arguments: { ref, selector } })) as CallToolResult;
    expect(r.isError, texts(r).join("\n")).toBeFalsy();
    const page = texts(r)[0]!;
    longest = Math.max(longest, page.length);
    text += page;
    pages++;
    selector = (r.structuredContent as { next?: Record<string, unknown> }).next;
    if (pages > 500) throw new Error("artifacts_get paging did not end");
  }
  return { text, pages, longest };
}
