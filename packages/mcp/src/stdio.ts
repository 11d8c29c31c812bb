import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createArefMcpServer, type ArefMcpServerOptions } from "./server.js";

/**
 * Serves the MCP server over stdin/stdout until the client closes stdin (or `signal` aborts).
 * Nothing else may write to stdout while it runs: log to stderr.
 */
export async function serveStdio(options: ArefMcpServerOptions & { signal?: AbortSignal }): Promise<void> {
  const server = createArefMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
    options.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
