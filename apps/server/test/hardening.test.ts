import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage, ChatProvider } from "../src/index.js";
import { ADMIN, TOKEN_A, call, jsonInit, startHarness, type Harness } from "./helpers.js";

// Issue 17 ("Hardening, round two"): one regression test per finding that concerns the server.

/** A raw HTTP/1.1 request (fetch cannot set Host). */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("chat fails closed over budget (issue 17 #5)", () => {
  const calls: ChatMessage[][] = [];
  const provider: ChatProvider = {
    name: "counting",
    async complete(messages) {
      calls.push(messages);
      return "answer";
    },
  };
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ provider, bodyLimit: 2 * 1024 * 1024 });
  });
  afterAll(() => h.close());

  it("never calls the provider with an over-budget prompt; the turn is still recorded", async () => {
    const history = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i} `.repeat(9_000).slice(0, 95_000) }));
    const res = await call(`${h.url}/api/chat`, jsonInit({ session_id: "sess-a", message: "and now?", history }, TOKEN_A));
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("BUDGET_EXCEEDED");
    expect(calls).toHaveLength(0);
    const turns = await call(`${h.url}/api/sessions/sess-a/metrics`, { token: ADMIN });
    expect(JSON.stringify(turns.json)).toContain('"budget_ok":false');
  });

  it("a prompt within budget still reaches the provider", async () => {
    const res = await call(`${h.url}/api/chat`, jsonInit({ session_id: "sess-a", message: "hello" }, TOKEN_A));
    expect(res.status).toBe(200);
    expect(res.json.response).toBe("answer");
    expect(calls).toHaveLength(1);
  });
});

describe("no tokens: Host/Origin allow-list against DNS rebinding (issue 17 #9)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ tokens: undefined });
  });
  afterAll(() => h.close());

  it("refuses a foreign Host or Origin with a 403 error receipt before any route runs", async () => {
    const port = new URL(h.url).port;
    const body = JSON.stringify({ session_id: "s1", tool_name: "read_file", tool_args: { path: "README.md" } });
    for (const headers of [{ host: "attacker.example" }, { host: `attacker.example:${port}` }, { host: `127.0.0.1:${port}`, origin: "http://attacker.example" }, { host: `127.0.0.1:${port}`, origin: "null" }]) {
      const res = await raw(h.url, "POST", "/api/artifacts/execute", { "content-type": "application/json", ...headers }, body);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe("FORBIDDEN");
    }
    const ok = await raw(h.url, "GET", "/api/sessions", { host: `localhost:${port}`, origin: `http://127.0.0.1:${port}` });
    expect(ok.status).toBe(200);
  });
});
