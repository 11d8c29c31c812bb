import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ArefError, isLoopbackHost, localRequestProblem } from "@artifact-refs/schema";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createArefMcpServer, type ArefMcpServerOptions } from "./server.js";

export interface HttpServeOptions extends ArefMcpServerOptions {
  port?: number;
  /** Address to listen on (default 127.0.0.1: MCP over HTTP has no auth here, keep it local). */
  host?: string;
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number;
}

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3333/mcp */
  url: string;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ArefError("TOO_LARGE", `request body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return text.length === 0 ? undefined : JSON.parse(text);
}

/**
 * Serves the MCP server over streamable HTTP (stateless: one server and transport per
 * request, so any number of clients can connect) on POST /mcp.
 */
export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const listenHost = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(listenHost.includes(":") && !listenHost.startsWith("[") ? `[${listenHost}]` : listenHost)) {
    throw new ArefError(
      "CONFIG_INVALID",
      `refusing to listen on ${listenHost}: MCP over HTTP has no authentication, anyone who can reach it could read the store`,
      {
        hint: "listen on 127.0.0.1 (the default) and put an authenticating proxy in front if you need remote access",
      },
    );
  }
  const http: Server = createServer((req, res) => {
    void (async () => {
      // No auth here: refuse DNS-rebinding requests (a foreign Host or Origin) before anything else.
      const problem = localRequestProblem({ host: req.headers.host, origin: req.headers.origin });
      if (problem !== undefined) {
        res.writeHead(403, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32000, message: `forbidden: ${problem}; this server only answers local clients` },
            id: null,
          }),
        );
        return;
      }
      const path = (req.url ?? "/").split("?")[0];
      if (path !== "/mcp") {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ error: "not found: the MCP endpoint is /mcp" }));
        return;
      }
      if (req.method !== "POST") {
        res.writeHead(405, { "content-type": "application/json", allow: "POST" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32000, message: "method not allowed: this stateless server takes POST only" },
            id: null,
          }),
        );
        return;
      }
      let body: unknown;
      try {
        body = await readJson(req, bodyLimit);
      } catch (error) {
        const status = error instanceof ArefError ? 413 : 400;
        res
          .writeHead(status, { "content-type": "application/json" })
          .end(
            JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: (error as Error).message }, id: null }),
          );
        return;
      }
      const server = createArefMcpServer(options);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message: (error as Error).message }, id: null }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, listenHost, () => resolve());
  });
  const { port, address } = http.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
