// The HTTP plumbing shared by the local fake model servers (fake-openai.ts, fake-anthropic.ts):
// a real server on 127.0.0.1 that reads each JSON body, records it and answers with what the wire
// format's `reply` builds (one JSON body, or server-sent events). Not a mock: the real SDKs talk
// HTTP to it.
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the server accepted, in arrival order. */
export interface Recorded {
  path: string;
  raw: string;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/** One wire format: which POST paths it serves, its 404 body, and the reply to the n-th request. */
export interface JsonRoutes {
  accepts(path: string): boolean;
  notFound(method: string | undefined, path: string): unknown;
  /**
   * The reply to `request`, the n-th accepted one (1-based): a JSON body, or, for a streaming
   * format, `{ events }` sent as server-sent events (`data: <json>`) closed by `data: [DONE]`.
   */
  reply(request: Recorded, n: number): unknown;
  /** True when `reply` returns `{ events }` (a streaming wire format). */
  streams?: boolean;
}

export interface FakeJsonServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: Recorded[];
  close(): Promise<void>;
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

/** Starts the server on a free port of 127.0.0.1; `close()` stops it. */
export async function startJsonServer(routes: JsonRoutes): Promise<FakeJsonServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    void read(req).then((raw) => {
      const path = req.url ?? "";
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (req.method !== "POST" || !routes.accepts(path)) return json(404, routes.notFound(req.method, path));
      const request: Recorded = { path, raw, body: JSON.parse(raw) as Record<string, unknown>, headers: req.headers };
      requests.push(request);
      const reply = routes.reply(request, requests.length);
      if (!routes.streams) return json(200, reply);
      const { events } = reply as { events: unknown[] };
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("")}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
