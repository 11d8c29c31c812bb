import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createArefMcpServer, type ArefMcpServerOptions } from "./server.js";

export interface StdioServeOptions extends ArefMcpServerOptions {
  /** Default: process.stdin */
  stdin?: Readable;
  /** Default: process.stdout. Nothing else may write to it while the server runs: log to stderr. */
  stdout?: Writable;
  signal?: AbortSignal;
}

/** Serves the MCP server over stdin/stdout until the client closes stdin (or `signal` aborts). */
export async function serveStdio(options: StdioServeOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const server = createArefMcpServer(options);
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    stdin.once("end", () => resolve());
    options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
