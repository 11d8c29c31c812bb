import { createServer as createHttpServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Driver } from "@artifact-refs/store";
import { ErrorReceiptSchema, FetchReceiptSchema, ListReceiptSchema, StashReceiptSchema } from "@artifact-refs/schema";
import { openAiCompatibleProvider } from "../src/index.js";
import { ADMIN, TOKEN_A, TOKEN_B, call, jsonInit, startHarness, type Harness } from "./helpers.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ bodyLimit: 64 * 1024 });
});
afterAll(async () => {
  await h.close();
});

const stashText = async (text: string, session = "sess-a", token = TOKEN_A, extra = "") =>
  call(`${h.url}/api/artifacts?session=${session}${extra}`, {
    method: "POST",
    body: text,
    headers: { "content-type": "text/plain" },
    token,
  });

function expectError(res: { status: number; json: any }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(ErrorReceiptSchema.parse(res.json).error.code).toBe(code);
}

describe("system routes", () => {
  it("GET /healthz answers without a token", async () => {
    const res = await call(`${h.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok", store: "memory" });
  });

  it("GET /openapi.json documents every route, generated from the zod schemas", async () => {
    const res = await call(`${h.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe("3.1.0");
    const paths = Object.keys(res.json.paths);
    for (const p of [
      "/api/artifacts",
      "/api/artifacts/{ref}",
      "/api/sessions/{id}/artifacts/{ref}",
      "/api/sessions",
      "/api/sessions/{id}/artifacts",
      "/api/sessions/{id}/metrics",
      "/api/sessions/{id}/hot-state",
      "/api/artifacts/execute",
      "/api/artifacts/context/{session_id}",
      "/api/chat",
      "/healthz",
      "/metrics",
    ]) {
      expect(paths).toContain(p);
    }
    expect(Object.keys(res.json.paths["/api/artifacts/{ref}"])).toEqual(expect.arrayContaining(["get", "head"]));
    const params = res.json.paths["/api/artifacts/{ref}"].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(
      expect.arrayContaining(["ref", "session", "mode", "pattern", "start", "end", "expr", "maxChars"]),
    );
    expect(
      res.json.paths["/api/artifacts/execute"].post.requestBody.content["application/json"].schema.anyOf,
    ).toHaveLength(2);
  });

  it("unknown routes are 404 in the error receipt shape", async () => {
    expectError(await call(`${h.url}/api/nope`, { token: ADMIN }), 404, "NOT_FOUND");
  });

  it("GET /metrics is Prometheus text for the admin, 403 for a session token", async () => {
    await stashText("metrics probe\n");
    const res = await call(`${h.url}/metrics`, { token: ADMIN });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    for (const name of [
      "aref_store_bytes",
      "aref_store_artifacts",
      "aref_store_dedupe_ratio",
      "aref_http_requests_total",
      "aref_http_request_duration_seconds_bucket",
      "aref_budget_violations_total",
    ]) {
      expect(res.text).toContain(name);
    }
    expect(res.text).toMatch(/aref_store_artifacts \d+/);
    expect(res.text).toMatch(/^aref_budget_violations_total 0$/m);
    expectError(await call(`${h.url}/metrics`, { token: TOKEN_A }), 403, "FORBIDDEN");
  });
});

describe("auth", () => {
  it("401 without a token, with an unknown token, with a malformed header", async () => {
    expectError(await call(`${h.url}/api/sessions`), 401, "UNAUTHORIZED");
    expectError(await call(`${h.url}/api/sessions`, { token: "not-a-real-token-xxxxxxxx" }), 401, "UNAUTHORIZED");
    expectError(
      await call(`${h.url}/api/sessions`, { headers: { authorization: `Basic ${ADMIN}` } }),
      401,
      "UNAUTHORIZED",
    );
  });
});

describe("POST /api/artifacts (stash)", () => {
  it("stores a raw body with options in the query and dedupes the same bytes", async () => {
    const first = await stashText("line one\nline two\n", "sess-a", TOKEN_A, "&label=notes.txt&type=doc");
    expect(first.status).toBe(201);
    const receipt = StashReceiptSchema.parse(first.json);
    expect(receipt).toMatchObject({ bytes: 18, deduped: false, type: "doc", label: "notes.txt", session: "sess-a" });
    const again = await stashText("line one\nline two\n");
    expect(again.json.deduped).toBe(true);
    expect(again.json.artifact_id).toBe(receipt.artifact_id);
  });

  it("stores a JSON envelope, utf-8 or base64", async () => {
    const res = await call(
      `${h.url}/api/artifacts`,
      jsonInit({ content: "envelope text", session: "sess-a", label: "env", ttl_ms: 60_000 }, TOKEN_A),
    );
    expect(res.status).toBe(201);
    expect(res.json.expires_at).toBeDefined();
    const b64 = await call(
      `${h.url}/api/artifacts`,
      jsonInit(
        { content: Buffer.from("envelope text").toString("base64"), encoding: "base64", session: "sess-a" },
        TOKEN_A,
      ),
    );
    expect(b64.json.artifact_id).toBe(res.json.artifact_id);
    expectError(
      await call(
        `${h.url}/api/artifacts`,
        jsonInit({ content: "!!!", encoding: "base64", session: "sess-a" }, TOKEN_A),
      ),
      400,
      "INVALID_INPUT",
    );
  });

  it("rejects an empty body, options in both places, and unknown envelope fields", async () => {
    expectError(await stashText(""), 400, "INVALID_INPUT");
    expectError(
      await call(`${h.url}/api/artifacts?session=sess-a`, jsonInit({ content: "x", session: "sess-a" }, TOKEN_A)),
      400,
      "INVALID_INPUT",
    );
    expectError(
      await call(`${h.url}/api/artifacts`, jsonInit({ content: "x", session: "sess-a", evil: 1 }, TOKEN_A)),
      400,
      "INVALID_INPUT",
    );
  });

  it("a JSON envelope over the body limit is 413 with the error receipt (raw bodies stream up to the store's cap)", async () => {
    const res = await call(
      `${h.url}/api/artifacts`,
      jsonInit({ content: "x".repeat(65 * 1024), session: "sess-a" }, TOKEN_A),
    );
    expectError(res, 413, "TOO_LARGE");
    expect((await stashText("x".repeat(65 * 1024))).status).toBe(201);
  });

  it("a session token must name its session", async () => {
    expectError(
      await call(`${h.url}/api/artifacts`, {
        method: "POST",
        body: "x",
        headers: { "content-type": "text/plain" },
        token: TOKEN_A,
      }),
      403,
      "FORBIDDEN",
    );
    expectError(await stashText("x", "sess-b", TOKEN_A), 403, "FORBIDDEN");
  });
});

describe("GET and HEAD /api/artifacts/:ref (bounded fetch)", () => {
  let ref: string;
  let jsonRef: string;
  beforeAll(async () => {
    const lines = Array.from({ length: 2_000 }, (_, i) => `line ${i + 1}${i % 100 === 0 ? " ERROR boom" : ""}`).join(
      "\n",
    );
    ref = (await stashText(lines)).json.short_ref;
    jsonRef = (
      await stashText(
        JSON.stringify({
          items: [
            { id: 1, name: "first" },
            { id: 2, name: "second" },
          ],
        }),
        "sess-a",
        TOKEN_A,
        "&mime=application/json",
      )
    ).json.short_ref;
  });

  it("headtail by default, never over the cap, says what was left out", async () => {
    const res = await call(`${h.url}/api/artifacts/${ref}?session=sess-a&maxChars=500`, { token: TOKEN_A });
    expect(res.status).toBe(200);
    const receipt = FetchReceiptSchema.parse(res.json);
    expect(receipt.chars).toBeLessThanOrEqual(500);
    expect(receipt.truncated).toBe(true);
    expect(receipt.total_lines).toBe(2_000);
    expect(receipt.text).toContain("line 1");
  });

  it("grep, range and jsonpath selectors in the query", async () => {
    const grep = await call(`${h.url}/api/artifacts/${ref}?session=sess-a&mode=grep&pattern=ERROR&context=0`, {
      token: TOKEN_A,
    });
    expect(grep.status).toBe(200);
    expect(grep.json.text.split("\n").filter((l: string) => l.includes("ERROR boom"))).toHaveLength(20);
    const range = await call(`${h.url}/api/artifacts/${ref}?session=sess-a&mode=range&start=10&end=12`, {
      token: TOKEN_A,
    });
    expect(range.json.text).toContain("line 10");
    expect(range.json.text).toContain("line 12");
    expect(range.json.text).not.toContain("line 13");
    const jp = await call(
      `${h.url}/api/artifacts/${jsonRef}?session=sess-a&mode=jsonpath&expr=${encodeURIComponent("$.items[1].name")}`,
      { token: TOKEN_A },
    );
    expect(jp.status).toBe(200);
    expect(jp.json.text).toContain("second");
  });

  it("the admin may fetch by handle without a session", async () => {
    const stash = await stashText("admin fetch\n");
    const res = await call(`${h.url}/api/artifacts/${stash.json.handle}`, { token: ADMIN });
    expect(res.status).toBe(200);
    expect(res.json.text).toBe("admin fetch\n");
  });

  it("bad selectors and refs are 4xx", async () => {
    expectError(
      await call(`${h.url}/api/artifacts/${ref}?session=sess-a&mode=grep`, { token: TOKEN_A }),
      400,
      "INVALID_SELECTOR",
    );
    expectError(
      await call(`${h.url}/api/artifacts/${ref}?session=sess-a&mode=range&pattern=x&start=1`, { token: TOKEN_A }),
      400,
      "INVALID_SELECTOR",
    );
    expectError(
      await call(`${h.url}/api/artifacts/${ref}?session=sess-a&mode=range&start=5&end=2`, { token: TOKEN_A }),
      400,
      "INVALID_SELECTOR",
    );
    expectError(
      await call(`${h.url}/api/artifacts/${ref}?session=sess-a&mode=bogus`, { token: TOKEN_A }),
      400,
      "INVALID_INPUT",
    );
    expectError(
      await call(`${h.url}/api/artifacts/${ref}?session=sess-a&maxChars=0`, { token: TOKEN_A }),
      400,
      "INVALID_INPUT",
    );
    expectError(await call(`${h.url}/api/artifacts/ART:XYZ?session=sess-a`, { token: TOKEN_A }), 400, "INVALID_HANDLE");
    expectError(
      await call(`${h.url}/api/artifacts/art:${"0".repeat(12)}?session=sess-a`, { token: TOKEN_A }),
      404,
      "NOT_FOUND",
    );
    expectError(await call(`${h.url}/api/artifacts/${ref}`, { token: TOKEN_A }), 403, "FORBIDDEN");
  });

  it("an expired reference is 410 EXPIRED, even when its selection is cached", async () => {
    const stash = await stashText("short-lived\n", "sess-a", TOKEN_A, "&ttl_ms=2000");
    expect(
      (await call(`${h.url}/api/artifacts/${stash.json.short_ref}?session=sess-a`, { token: TOKEN_A })).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100));
    expectError(
      await call(`${h.url}/api/artifacts/${stash.json.short_ref}?session=sess-a`, { token: TOKEN_A }),
      410,
      "EXPIRED",
    );
  });

  it("HEAD gives the metadata in headers, 404 when absent", async () => {
    const res = await fetch(`${h.url}/api/artifacts/${ref}?session=sess-a`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${TOKEN_A}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-artifact-id")).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(res.headers.get("x-artifact-size"))).toBeGreaterThan(10_000);
    expect(res.headers.get("x-short-ref")).toBe(ref);
    const missing = await fetch(`${h.url}/api/artifacts/art:${"0".repeat(12)}?session=sess-a`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${TOKEN_A}` },
    });
    expect(missing.status).toBe(404);
  });
});

describe("sessions", () => {
  it("GET /api/sessions lists what the token may see", async () => {
    await stashText("b's artifact\n", "sess-b", TOKEN_B);
    const admin = await call(`${h.url}/api/sessions`, { token: ADMIN });
    expect(admin.json.sessions.map((s: { session_id: string }) => s.session_id)).toEqual(
      expect.arrayContaining(["sess-a", "sess-b"]),
    );
    const a = await call(`${h.url}/api/sessions`, { token: TOKEN_A });
    expect(a.json.sessions.map((s: { session_id: string }) => s.session_id)).toEqual(["sess-a"]);
  });

  it("GET /api/sessions/:id/artifacts lists references with short refs; unknown session is 404", async () => {
    const res = await call(`${h.url}/api/sessions/sess-a/artifacts`, { token: TOKEN_A });
    expect(res.status).toBe(200);
    const receipt = ListReceiptSchema.parse(res.json);
    expect(receipt.count).toBeGreaterThan(2);
    expect(receipt.items.some((i) => i.label === "notes.txt")).toBe(true);
    expectError(await call(`${h.url}/api/sessions/nobody/artifacts`, { token: ADMIN }), 404, "UNKNOWN_SESSION");
    expectError(await call(`${h.url}/api/sessions/bad%20id/artifacts`, { token: ADMIN }), 400, "INVALID_INPUT");
  });

  it("DELETE /api/sessions/:id/artifacts/:ref drops the reference; the fetch is then 404", async () => {
    const stash = await stashText("to be dropped\n");
    // Fetched once, so its selection is cached: the access check must still run after the drop.
    expect(
      (await call(`${h.url}/api/artifacts/${stash.json.short_ref}?session=sess-a`, { token: TOKEN_A })).status,
    ).toBe(200);
    const del = await call(`${h.url}/api/sessions/sess-a/artifacts/${stash.json.short_ref}`, {
      method: "DELETE",
      token: TOKEN_A,
    });
    expect(del.status).toBe(200);
    expect(del.json).toMatchObject({
      schema: "artifact-refs.rm.v1",
      artifact_id: stash.json.artifact_id,
      references_removed: 1,
    });
    expectError(
      await call(`${h.url}/api/artifacts/${stash.json.short_ref}?session=sess-a`, { token: TOKEN_A }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call(`${h.url}/api/sessions/sess-a/artifacts/${stash.json.short_ref}`, {
        method: "DELETE",
        token: TOKEN_A,
      }),
      404,
      "NOT_FOUND",
    );
  });

  it("GET hot-state: the session's hot state from its references; null for a session without any", async () => {
    const res = await call(`${h.url}/api/sessions/sess-a/hot-state`, { token: TOKEN_A });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      schema: "artifact-refs.hot-state.v1",
      session: "sess-a",
      hot_state: { session_id: "sess-a" },
    });
    expect(res.json.hot_state.artifact_index.some((e: { label?: string }) => e.label === "notes.txt")).toBe(true);
    expect(res.json.tokens).toBeGreaterThan(0);
    expect(res.json.tokens).toBeLessThanOrEqual(1_000);
    const empty = await call(`${h.url}/api/sessions/empty-session/hot-state`, { token: ADMIN });
    expect(empty.json).toMatchObject({ session: "empty-session", hot_state: null });
  });
});

describe("executions (docs/ARCHITECTURE.md §executions)", () => {
  it("runs read_file and returns the seed's response shape; the result is stored", async () => {
    const res = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit(
        {
          session_id: "sess-a",
          artifact_id: "art_1",
          artifact_title: "Read File",
          tool_name: "builtin.read_file",
          tool_args: { path: "README.md" },
        },
        TOKEN_A,
      ),
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: "success",
      summary: expect.stringContaining("Loaded README.md"),
      display: { type: "code", syntax: "markdown" },
    });
    expect(res.json.result).toContain("# My Project");
    expect(res.json.execution_id).toBeTruthy();
    const fetched = await call(
      `${h.url}/api/sessions/sess-a/executions/${res.json.execution_id}/result?mode=grep&pattern=TODO`,
      { token: TOKEN_A },
    );
    expect(fetched.status).toBe(200);
    expect(fetched.json.text).toBe("4:It has a TODO list.");
    expectError(
      await call(`${h.url}/api/sessions/sess-a/executions/exec_nope/result`, { token: TOKEN_A }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call(`${h.url}/api/sessions/sess-a/executions/${res.json.execution_id}/result?mode=range`, {
        token: TOKEN_A,
      }),
      400,
      "INVALID_SELECTOR",
    );
  });

  it("a large result is stored as an artifact: result_ref, shortened result, bounded fetch of the rest", async () => {
    const res = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-a", tool_name: "read_file", tool_args: { path: "logs/big.log" } }, TOKEN_A),
    );
    expect(res.status).toBe(200);
    expect(res.json.result_ref).toMatch(/^[0-9a-f]{64}$/);
    expect(res.json.result_truncated).toBe(true);
    expect(res.json.result.length).toBeLessThanOrEqual(8_000);
    const tail = await call(
      `${h.url}/api/artifacts/${res.json.result_ref}?session=sess-a&mode=range&start=5000&end=5000`,
      { token: TOKEN_A },
    );
    expect(tail.json.text).toContain("entry 5000");
    const viaExecution = await call(
      `${h.url}/api/sessions/sess-a/executions/${res.json.execution_id}/result?mode=grep&pattern=${encodeURIComponent("entry 4999\\b")}`,
      { token: TOKEN_A },
    );
    expect(viaExecution.json.text).toContain("entry 4999");
  });

  it("runs a batch and records each execution", async () => {
    const res = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit(
        {
          session_id: "sess-a",
          batch: [
            { tool_name: "list_files", tool_args: { path: "src", recursive: true } },
            { tool_name: "grep", tool_args: { pattern: "TODO" } },
            { tool_name: "read_file", tool_args: { path: "missing.txt" } },
          ],
        },
        TOKEN_A,
      ),
    );
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("partial");
    const [list, grep, missing] = res.json.executions;
    expect(list.result.split("\n")).toEqual(["src/lib/", "src/main.py", "src/lib/utils.py"]);
    expect(grep.result).toContain("README.md:4: It has a TODO list.");
    expect(grep.result).toContain("src/main.py:4:");
    expect(grep.result).not.toContain("TOP-SECRET");
    expect(missing).toMatchObject({ status: "error", error: { code: "NOT_FOUND" } });
  });

  it("never reads outside the workspace: .., absolute paths, symlinks", async () => {
    for (const path of [
      "../outside/secret.txt",
      "/etc/passwd",
      "escape-link.txt",
      "escape-dir/secret.txt",
      "src/../../outside/secret.txt",
    ]) {
      const res = await call(
        `${h.url}/api/artifacts/execute`,
        jsonInit({ session_id: "sess-a", tool_name: "read_file", tool_args: { path } }, TOKEN_A),
      );
      expect(res.status).toBe(200);
      expect(res.json.status).toBe("error");
      expect(res.json.error.code).toBe("PERMISSION_DENIED");
      expect(res.json.result).not.toContain("TOP-SECRET");
    }
    const list = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-a", tool_name: "list_files", tool_args: { path: ".", recursive: true } }, TOKEN_A),
    );
    expect(list.json.result).toContain("escape-link.txt -> (outside the workspace, not followed)");
    expect(list.json.result).not.toContain("secret.txt");
    const grep = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-a", tool_name: "grep", tool_args: { pattern: "TOP-SECRET" } }, TOKEN_A),
    );
    expect(grep.json.result).toBe("");
  });

  it("unknown tools, bad arguments and wrong content types are 4xx before anything runs", async () => {
    expectError(
      await call(
        `${h.url}/api/artifacts/execute`,
        jsonInit({ session_id: "sess-a", tool_name: "rm_rf", tool_args: {} }, TOKEN_A),
      ),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call(
        `${h.url}/api/artifacts/execute`,
        jsonInit({ session_id: "sess-a", tool_name: "read_file", tool_args: { path: 3 } }, TOKEN_A),
      ),
      400,
      "INVALID_INPUT",
    );
    const badRegex = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-a", tool_name: "grep", tool_args: { pattern: "(a" } }, TOKEN_A),
    );
    expect(badRegex.status).toBe(200);
    expect(badRegex.json).toMatchObject({ status: "error", error: { code: "INVALID_INPUT" } });
    expectError(
      await call(`${h.url}/api/artifacts/execute`, {
        method: "POST",
        body: "tool_name=read_file",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        token: TOKEN_A,
      }),
      415,
      "UNSUPPORTED",
    );
    expectError(
      await call(
        `${h.url}/api/artifacts/execute`,
        jsonInit({ session_id: "sess-b", tool_name: "read_file", tool_args: { path: "README.md" } }, TOKEN_A),
      ),
      403,
      "FORBIDDEN",
    );
  });

  it("GET /api/artifacts/context/:session_id is the §executions context shape", async () => {
    const res = await call(`${h.url}/api/artifacts/context/sess-a`, { token: TOKEN_A });
    expect(res.status).toBe(200);
    expect(res.json.session_id).toBe("sess-a");
    expect(res.json.executions.length).toBeGreaterThan(3);
    expect(res.json.recent_tools).toEqual(
      expect.arrayContaining(["read_file", "grep", "list_files", "builtin.read_file"]),
    );
    expect(res.json.recent_files).toContain("README.md");
    expect(res.json.executions[0]).toHaveProperty("summary");
  });
});

describe("chat", () => {
  it("resolves 'what I just loaded' to the last read and returns the context message and metrics", async () => {
    await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-b", tool_name: "list_files", tool_args: { path: "src" } }, TOKEN_B),
    );
    const read = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-b", tool_name: "read_file", tool_args: { path: "config.json" } }, TOKEN_B),
    );
    const res = await call(
      `${h.url}/api/chat`,
      jsonInit({ session_id: "sess-b", message: "summarize what I just loaded" }, TOKEN_B),
    );
    expect(res.status).toBe(200);
    expect(res.json.referenced_executions).toEqual([read.json.execution_id]);
    expect(res.json.candidates[0]).toMatchObject({
      execution_id: read.json.execution_id,
      reasons: expect.arrayContaining([expect.stringContaining("read_file")]),
    });
    expect(res.json.context_message.role).toBe("system");
    expect(res.json.context_message.content).toContain("config.json");
    expect(res.json.context_message.content).toContain('"port": 8080');
    expect(res.json.response).toBeNull();
    expect(res.json.metrics).toMatchObject({ type: "prompt_metrics", session: "sess-b", budget_ok: true });
    expect(res.json.metrics.est_tokens).toBeGreaterThan(10);
    const metrics = await call(`${h.url}/api/sessions/sess-b/metrics`, { token: TOKEN_B });
    expect(metrics.json.turns).toHaveLength(1);
    expect(metrics.json.budget.prompt_tokens).toBe(8_000);
  });
});

describe("chat follow-ups", () => {
  it("reads 'the one before that' against the conversation's last resolution", async () => {
    const first = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-b", tool_name: "read_file", tool_args: { path: "README.md" } }, TOKEN_B),
    );
    const second = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-b", tool_name: "read_file", tool_args: { path: "config.json" } }, TOKEN_B),
    );
    const now = await call(
      `${h.url}/api/chat`,
      jsonInit({ session_id: "sess-b", message: "what did I just read?" }, TOKEN_B),
    );
    expect(now.json.candidates[0].execution_id).toBe(second.json.execution_id);
    const before = await call(
      `${h.url}/api/chat`,
      jsonInit({ session_id: "sess-b", message: "and the one before that?" }, TOKEN_B),
    );
    expect(before.status).toBe(200);
    expect(before.json.candidates[0]).toMatchObject({
      execution_id: first.json.execution_id,
      reasons: [expect.stringContaining("follow-up")],
    });
  });
});

describe("chat over budget", () => {
  it("a prompt over the budget is recorded as a violation (metrics event and Prometheus counter), never silently", async () => {
    const { DEFAULT_BUDGET } = await import("@artifact-refs/budget");
    const small = await startHarness({
      kit: { budget: { ...DEFAULT_BUDGET, maxPromptTokens: 40, warnPromptTokens: 30 } },
    });
    try {
      await call(
        `${small.url}/api/artifacts/execute`,
        jsonInit({ session_id: "sess-a", tool_name: "read_file", tool_args: { path: "README.md" } }, TOKEN_A),
      );
      const res = await call(
        `${small.url}/api/chat`,
        jsonInit({ session_id: "sess-a", message: "summarize what I just loaded" }, TOKEN_A),
      );
      expect(res.status).toBe(200);
      expect(res.json.metrics).toMatchObject({ budget_ok: false, budget_violations: 1 });
      expect(res.json.metrics.violations[0].limit).toBe(40);
      const prom = await call(`${small.url}/metrics`, { token: ADMIN });
      expect(prom.text).toMatch(/^aref_budget_violations_total 1$/m);
      const turns = await call(`${small.url}/api/sessions/sess-a/metrics`, { token: TOKEN_A });
      expect(turns.json.budget.prompt_tokens).toBe(40);
    } finally {
      await small.close();
    }
  });
});

describe("chat with a provider", () => {
  let fake: Server;
  let seen: any;
  let p: Harness;
  beforeAll(async () => {
    // A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol.
    fake = createHttpServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen = JSON.parse(body);
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            choices: [{ message: { role: "assistant", content: "It is a sample project about artifact references." } }],
          }),
        );
      });
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
    const port = (fake.address() as { port: number }).port;
    p = await startHarness({
      provider: openAiCompatibleProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, model: "test-model" }),
    });
  });
  afterAll(async () => {
    await p.close();
    await new Promise((r) => fake.close(r));
  });

  it("injects the context message and returns the model's answer", async () => {
    await call(
      `${p.url}/api/artifacts/execute`,
      jsonInit({ session_id: "sess-a", tool_name: "read_file", tool_args: { path: "README.md" } }, TOKEN_A),
    );
    const res = await call(
      `${p.url}/api/chat`,
      jsonInit({ session_id: "sess-a", message: "Summarize what I just loaded" }, TOKEN_A),
    );
    expect(res.status).toBe(200);
    expect(res.json.response).toBe("It is a sample project about artifact references.");
    expect(res.json.provider).toBe("openai-compatible:test-model");
    expect(seen.model).toBe("test-model");
    const system = seen.messages
      .filter((m: { role: string }) => m.role === "system")
      .map((m: { content: string }) => m.content)
      .join("\n");
    expect(system).toContain("# My Project");
    expect(seen.messages.at(-1)).toEqual({ role: "user", content: "Summarize what I just loaded" });
  });
});

describe("limits and shutdown", () => {
  it("rate limit: 429 with the error receipt", async () => {
    const r = await startHarness({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
    try {
      const statuses: number[] = [];
      let last: any;
      for (let i = 0; i < 5; i++) {
        const res = await call(`${r.url}/api/sessions`, { token: ADMIN });
        statuses.push(res.status);
        last = res;
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expectError(last, 429, "RATE_LIMITED");
      // Made-up tokens share the caller's IP budget instead of getting one each.
      const bogus = await Promise.all(
        [1, 2, 3, 4].map((i) => call(`${r.url}/api/sessions`, { token: `made-up-token-${i}-0123456789` })),
      );
      expect(bogus.map((b) => b.status).filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      expect((await call(`${r.url}/healthz`)).status).toBe(200);
    } finally {
      await r.close();
    }
  });

  it("graceful shutdown finishes an in-flight write", async () => {
    const { ArtifactStore, MemoryDriver } = await import("@artifact-refs/store");
    const driver = new MemoryDriver();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inWrite = new Promise<void>((r) => (entered = r));
    // A real memory driver whose blob writes wait on a gate, so a write is in flight during close().
    const slow: Driver = {
      kind: driver.kind,
      location: driver.location,
      putIfAbsent: async (key, data) => {
        if (key.startsWith("blobs/")) {
          entered();
          await gate;
        }
        return driver.putIfAbsent(key, data);
      },
      put: (key, data) => driver.put(key, data),
      get: (key) => driver.get(key),
      head: (key) => driver.head(key),
      delete: (key, options) => driver.delete(key, options),
      list: (prefix) => driver.list(prefix),
      uri: (key) => driver.uri(key),
    };
    const store = new ArtifactStore({ driver: slow });
    const r = await startHarness({ store });
    const pending = call(`${r.url}/api/artifacts?session=sess-a`, {
      method: "POST",
      body: "in flight\n",
      headers: { "content-type": "text/plain" },
      token: TOKEN_A,
    });
    await inWrite;
    const closing = r.server.close();
    setTimeout(release, 50);
    const res = await pending;
    await closing;
    expect(res.status).toBe(201);
    expect(new TextDecoder().decode(await store.get(res.json.artifact_id))).toBe("in flight\n");
    await r.close().catch(() => undefined);
  });
});
