import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage, ChatProvider } from "../src/index.js";
import { ADMIN, TOKEN_A, call, jsonInit, startHarness, type Harness } from "./helpers.js";

// Issue 17 ("Hardening, round two"): one regression test per finding that concerns the server.

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
