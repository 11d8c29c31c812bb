// The HTTP plumbing shared by the local fake model servers (fake-openai.ts, the Anthropic
// adapter's fake-anthropic.ts): a real server on 127.0.0.1 that reads each JSON body, records it
// and answers with what the wire format's `reply` builds. Not a mock: the real SDKs talk HTTP to it.
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
  /** The JSON reply to `request`, the n-th accepted one (1-based). */
  reply(request: Recorded, n: number): unknown;
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
      json(200, routes.reply(request, requests.length));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
