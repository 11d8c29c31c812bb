import { useS3Server } from "@artifact-refs/tooling/testing/s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, jsonInit, makeWorkspace } from "./helpers.js";
import { spawnServer, type ServerProcess } from "./instances.js";

/**
 * Two server processes on one bucket of the local S3 server, behind a round-robin client: every
 * execute, context, chat, timeline and metrics request may land on either, and both answer the
 * same, whichever wrote it (session records live in the store, not in a process). Then one is
 * killed mid-run (SIGKILL, requests in flight) and the other still serves every session.
 */
const s3 = useS3Server();
const SESSIONS = ["s1", "s2", "s3"];
let a: ServerProcess;
let b: ServerProcess;
let cleanupWorkspace: () => Promise<void>;

beforeAll(async () => {
  const ws = await makeWorkspace();
  cleanupWorkspace = ws.cleanup;
  const options = { store: s3.storeSpec(s3.createBucket(), "shared"), workspace: ws.root, tokens: { admin: ADMIN } };
  [a, b] = await Promise.all([spawnServer(options), spawnServer(options)]);
});
afterAll(async () => {
  for (const server of [a, b]) {
    if (server && server.process.exitCode === null && server.process.signalCode === null) {
      server.process.kill("SIGTERM");
      await server.exited;
    }
  }
  await cleanupWorkspace?.();
});

const get = async (server: ServerProcess, path: string) => {
  const res = await call(`${server.url}${path}`, { token: ADMIN });
  expect(res.status, `${path} on ${server.url}: ${res.text.slice(0, 300)}`).toBe(200);
  return res.json;
};

/** What a session looks like from one instance: its context, timeline, metrics and chat turns. */
async function view(server: ServerProcess, session: string) {
  const context = await get(server, `/api/artifacts/context/${session}`);
  const timeline = await get(server, `/api/sessions/${session}/executions`);
  const metrics = await get(server, `/api/sessions/${session}/metrics`);
  const chat = await get(server, `/api/sessions/${session}/chat`);
  return { context, timeline: timeline.executions, metrics: metrics.turns, chat: chat.turns };
}

const execute = (server: ServerProcess, session: string, path: string) =>
  call(
    `${server.url}/api/artifacts/execute`,
    jsonInit({ session_id: session, tool_name: "read_file", tool_args: { path } }, ADMIN),
  );

describe("two server processes on one S3 bucket", () => {
  it("answer every execute, context, chat, timeline and metrics request the same, whichever instance wrote", async () => {
    const files = ["README.md", "src/main.py", "logs/big.log", "config.json", "src/lib/utils.py", "README.md"];
    const written = new Map<string, string[]>(SESSIONS.map((s) => [s, []]));
    for (const [i, path] of files.entries()) {
      const session = SESSIONS[i % SESSIONS.length]!;
      const writer = i % 2 === 0 ? a : b;
      const reader = i % 2 === 0 ? b : a;
      const res = await execute(writer, session, path);
      expect(res.status).toBe(200);
      written.get(session)!.push(res.json.execution_id);
      // The other instance sees it at once (no cache of records), in the same order.
      const seen = await get(reader, `/api/sessions/${session}/executions`);
      expect(seen.executions.map((e: { execution_id: string }) => e.execution_id)).toEqual(written.get(session));
      // A chat turn on the reader resolves against the writer's executions.
      const chat = await call(
        `${reader.url}/api/chat`,
        jsonInit({ session_id: session, message: `what is in ${path}?` }, ADMIN),
      );
      expect(chat.status).toBe(200);
      expect(chat.json.referenced_executions).toContain(res.json.execution_id);
      expect(chat.json.metrics.turn).toBe(Math.floor(i / SESSIONS.length) + 1);
    }
    for (const session of SESSIONS) {
      const fromA = await view(a, session);
      const fromB = await view(b, session);
      expect(fromB).toEqual(fromA);
      expect(fromA.context.executions.map((e: { execution_id: string }) => e.execution_id)).toEqual(
        [...written.get(session)!].reverse(),
      );
      expect(fromA.chat).toHaveLength(2);
      expect(fromA.metrics.map((m: { turn: number }) => m.turn)).toEqual([1, 2]);
      expect(fromA.context.turn).toBe(2);
    }
    // The same question asked of each instance gets the same context and the same resolution.
    const askA = await call(
      `${a.url}/api/chat`,
      jsonInit({ session_id: "s1", message: "show me the readme again" }, ADMIN),
    );
    const askB = await call(
      `${b.url}/api/chat`,
      jsonInit({ session_id: "s1", message: "show me the readme again" }, ADMIN),
    );
    expect(askB.json.referenced_executions).toEqual(askA.json.referenced_executions);
    // The injected-context tag's MAC is made under the secret the store holds, so both instances
    // tag the same message identically (tag line included).
    expect(askA.json.context_message?.content).toMatch(/^<!-- aref:injected mac=[0-9a-f]{32} -->\n/);
    expect(askB.json.context_message).toEqual(askA.json.context_message);
    expect(askB.json.metrics.turn).toBe(askA.json.metrics.turn + 1);
  });

  it("a follow-up on one instance resolves against the last resolution made on the other", async () => {
    const first = await execute(a, "f1", "README.md");
    const second = await execute(b, "f1", "config.json");
    const now = await call(
      `${a.url}/api/chat`,
      jsonInit({ session_id: "f1", message: "what did I just read?" }, ADMIN),
    );
    expect(now.json.candidates[0].execution_id).toBe(second.json.execution_id);
    const before = await call(
      `${b.url}/api/chat`,
      jsonInit({ session_id: "f1", message: "and the one before that?" }, ADMIN),
    );
    expect(before.json.candidates[0]).toMatchObject({
      execution_id: first.json.execution_id,
      reasons: [expect.stringContaining("follow-up")],
    });
  });

  it("killed mid-run, one instance leaves the other serving every session, with every record it acknowledged", async () => {
    const acknowledged = new Map<string, string[]>(SESSIONS.map((s) => [s, []]));
    let stop = false;
    const load = (async () => {
      for (let i = 0; !stop; i++) {
        const session = SESSIONS[i % SESSIONS.length]!;
        try {
          const res = await execute(a, session, i % 2 === 0 ? "README.md" : "src/main.py");
          if (res.status === 200) acknowledged.get(session)!.push(res.json.execution_id);
        } catch {
          return; // the connection died with the process
        }
      }
    })();
    await expect
      .poll(() => [...acknowledged.values()].reduce((n, ids) => n + ids.length, 0), { timeout: 20_000, interval: 20 })
      .toBeGreaterThanOrEqual(6);
    a.process.kill("SIGKILL");
    await a.exited;
    stop = true;
    await load;
    for (const session of SESSIONS) {
      const fromB = await view(b, session);
      const ids = fromB.timeline.map((e: { execution_id: string }) => e.execution_id);
      for (const id of acknowledged.get(session)!) expect(ids).toContain(id);
      expect(fromB.chat.length).toBeGreaterThanOrEqual(2);
      const chat = await call(
        `${b.url}/api/chat`,
        jsonInit({ session_id: session, message: "what did I just load?" }, ADMIN),
      );
      expect(chat.status).toBe(200);
      expect(chat.json.context_message?.content).toContain("Artifact Context");
      const result = await get(
        b,
        `/api/sessions/${session}/executions/${acknowledged.get(session)!.at(-1)}/result?mode=grep&pattern=TODO`,
      );
      expect(result.text).toMatch(/TODO/);
    }
  });
});
