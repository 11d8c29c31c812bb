import { describe, expect, it } from "vitest";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { recordKey } from "@artifact-refs/store/internal";
import { createServer } from "../src/index.js";
import { makeWorkspace } from "./helpers.js";

/** Session records as the server reads them: paged, and a corrupt one is skipped, never a 500. */
describe("session records through the API", () => {
  it("skips a corrupt or hand-edited record with a count, and pages the timeline back", async () => {
    const ws = await makeWorkspace();
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const server = await createServer({ store, workspace: ws.root, ui: false, rateLimit: false });
    try {
      const ids: string[] = [];
      for (const path of ["README.md", "src/main.py", "config.json"]) {
        const res = await server.app.inject({
          method: "POST",
          url: "/api/artifacts/execute",
          payload: { session_id: "s1", tool_name: "read_file", tool_args: { path } },
        });
        expect(res.statusCode).toBe(200);
        ids.push(res.json().execution_id);
      }
      expect(
        (
          await server.app.inject({
            method: "POST",
            url: "/api/chat",
            payload: { session_id: "s1", message: "what is in the config?" },
          })
        ).statusCode,
      ).toBe(200);
      // Paging: two newest, then the rest.
      const first = (await server.app.inject({ method: "GET", url: "/api/sessions/s1/executions?limit=2" })).json();
      expect(first.executions.map((e: { execution_id: string }) => e.execution_id)).toEqual(ids.slice(1));
      const rest = (
        await server.app.inject({ method: "GET", url: `/api/sessions/s1/executions?limit=2&before=${first.before}` })
      ).json();
      expect(rest.executions.map((e: { execution_id: string }) => e.execution_id)).toEqual(ids.slice(0, 1));
      expect(rest.before).toBeUndefined();
      // Hand-edit the middle execution and the chat turn.
      const executions = await store.records.page("s1", "execution");
      const middle = executions.records[1]!;
      await store.driver.put(
        recordKey("s1", "execution", middle.id),
        new TextEncoder().encode(JSON.stringify({ ...middle, record: 1, body: { record: { execution_id: 7 } } })),
      );
      const turn = (await store.records.page("s1", "chat-turn")).records[0]!;
      await store.driver.put(recordKey("s1", "chat-turn", turn.id), new TextEncoder().encode("{ truncated"));
      const listed = await server.app.inject({ method: "GET", url: "/api/sessions/s1/executions" });
      expect(listed.statusCode).toBe(200);
      expect(listed.json().executions.map((e: { execution_id: string }) => e.execution_id)).toEqual([ids[0], ids[2]]);
      expect(listed.json().skipped).toBe(1);
      for (const url of ["/api/artifacts/context/s1", "/api/sessions/s1/chat", "/api/sessions/s1/metrics"]) {
        expect((await server.app.inject({ method: "GET", url })).statusCode, url).toBe(200);
      }
      expect((await server.app.inject({ method: "GET", url: "/api/sessions/s1/chat" })).json().skipped).toBe(1);
      const chat = await server.app.inject({
        method: "POST",
        url: "/api/chat",
        payload: { session_id: "s1", message: "and the readme?" },
      });
      expect(chat.statusCode).toBe(200);
      expect(chat.json().metrics.turn).toBe(1); // the only stored turn is unreadable: numbering restarts, nothing fails
      // Bad paging input is a 400, not a 500.
      expect(
        (await server.app.inject({ method: "GET", url: "/api/sessions/s1/executions?before=yesterday" })).statusCode,
      ).toBe(400);
      expect((await server.app.inject({ method: "GET", url: "/api/sessions/s1/executions?limit=0" })).statusCode).toBe(
        400,
      );
      expect((await server.app.inject({ method: "GET", url: "/api/sessions/s1/chat?limit=5000" })).statusCode).toBe(
        400,
      );
    } finally {
      await server.close();
      await ws.cleanup();
    }
  });
});
