import { describe, expect, it } from "vitest";
import { ExecutionContext } from "@artifact-refs/context";
import { resolveReferences } from "@artifact-refs/resolve";
import type { PromptMetrics } from "@artifact-refs/schema";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { createServer } from "@artifact-refs/server";

describe("preloaded sessions (a finished agent run served by the API and UI)", () => {
  it("serves a restored execution context and its metrics", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const run = new ExecutionContext({
      session: "demo-1",
      store,
      resolveReferences: (q, e) => resolveReferences(q, e),
    });
    const big = `# README\n${"line of the readme\n".repeat(3_000)}`;
    const recorded = await run.record({ tool_name: "read_file", tool_args: { path: "README.md" }, result: big });
    const metric: PromptMetrics = {
      type: "prompt_metrics",
      session: "demo-1",
      hs_tokens: 40,
      hs_bytes: 160,
      hs_truncated: false,
      artifacts: 1,
      artifact_types: ["doc"],
      sys_chars: 300,
      user_chars: 40,
      est_tokens: 900,
      ref_files: 0,
      budget_violations: 0,
      budget_ok: true,
    };
    const server = await createServer({
      store,
      preload: { executions: [run.toJSON()], metrics: [metric] },
      ui: false,
      rateLimit: false,
    });
    try {
      const context = await server.app.inject({ method: "GET", url: "/api/artifacts/context/demo-1" });
      expect(context.statusCode).toBe(200);
      expect(context.json().executions.map((e: { execution_id: string }) => e.execution_id)).toEqual([
        recorded.execution_id,
      ]);
      const metrics = await server.app.inject({ method: "GET", url: "/api/sessions/demo-1/metrics" });
      expect(metrics.statusCode).toBe(200);
      expect(JSON.stringify(metrics.json())).toContain('"est_tokens":900');
      const chat = await server.app.inject({
        method: "POST",
        url: "/api/chat",
        payload: { session_id: "demo-1", message: "summarize what I just loaded" },
      });
      expect(chat.statusCode).toBe(200);
      expect(chat.json().referenced_executions).toEqual([recorded.execution_id]);
    } finally {
      await server.close();
    }
  });

  it("refuses a malformed saved session with a clear error", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    await expect(
      createServer({ store, preload: { executions: [{ session_id: "x", turn: -1 }] }, ui: false }),
    ).rejects.toThrow(/invalid|execution/i);
  });
});
