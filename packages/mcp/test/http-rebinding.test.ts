import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { serveHttp } from "../src/index.js";
import { useHttpFixture } from "./helpers.js";

// Issue 17, finding 9: MCP over HTTP has no auth, so it must refuse DNS-rebinding requests and non-loopback binds.
const served = useHttpFixture();

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(LIST);
  });
}

describe("MCP over HTTP: Host/Origin allow-list (issue 17 #9)", () => {
  it("refuses a foreign Host or Origin with 403, answers local ones", async () => {
    const port = new URL(served.http.url).port;
    expect((await post(served.http.url, { host: "attacker.example" })).status).toBe(403);
    expect((await post(served.http.url, { host: `attacker.example:${port}` })).status).toBe(403);
    expect((await post(served.http.url, { host: `127.0.0.1:${port}`, origin: "http://attacker.example" })).status).toBe(
      403,
    );
    expect((await post(served.http.url, { host: `localhost:${port}`, origin: "null" })).status).toBe(403);
    const ok = await post(served.http.url, { host: `localhost:${port}`, origin: `http://localhost:${port}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("artifacts_get");
  });

  it("refuses to bind a non-loopback address (it has no auth)", async () => {
    await expect(serveHttp({ store: served.fx.store, session: "s1", host: "0.0.0.0" })).rejects.toThrow(
      /refusing to listen on 0\.0\.0\.0/,
    );
  });
});
