import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, TOKEN_A, TOKEN_AB, TOKEN_B, call, jsonInit, startHarness, type Harness, type Res } from "./helpers.js";

/**
 * The isolation matrix: every token × every session × every session-scoped route.
 * A token may only ever read what its sessions hold; the count of cross-session reads must be 0.
 */
let h: Harness;
const SESSIONS = ["sess-a", "sess-b"] as const;
const SECRET: Record<string, string> = { "sess-a": "SECRET-OF-A-7f3a", "sess-b": "SECRET-OF-B-91c2" };
const data: Record<string, { id: string; short: string; execution: string }> = {};

const TOKENS: Array<{ name: string; token?: string; sees: string[] }> = [
  { name: "admin", token: ADMIN, sees: ["sess-a", "sess-b"] },
  { name: "A", token: TOKEN_A, sees: ["sess-a"] },
  { name: "B", token: TOKEN_B, sees: ["sess-b"] },
  { name: "AB", token: TOKEN_AB, sees: ["sess-a", "sess-b"] },
  { name: "none", sees: [] },
  { name: "unknown", token: "unknown-token-0123456789abcdef", sees: [] },
];

beforeAll(async () => {
  h = await startHarness();
  for (const s of SESSIONS) {
    const stash = await call(`${h.url}/api/artifacts?session=${s}&label=${s}-secret`, {
      method: "POST",
      body: `${SECRET[s]}\nmore lines\n`,
      headers: { "content-type": "text/plain" },
      token: ADMIN,
    });
    expect(stash.status).toBe(201);
    const exec = await call(
      `${h.url}/api/artifacts/execute`,
      jsonInit(
        { session_id: s, tool_name: "read_file", tool_args: { path: "README.md" }, label: `${SECRET[s]}-label` },
        ADMIN,
      ),
    );
    expect(exec.status).toBe(200);
    const chat = await call(
      `${h.url}/api/chat`,
      jsonInit({ session_id: s, message: `what did I just load? ${SECRET[s]}` }, ADMIN),
    );
    expect(chat.status).toBe(200);
    data[s] = { id: stash.json.artifact_id, short: stash.json.short_ref, execution: exec.json.execution_id };
  }
});
afterAll(async () => {
  await h.close();
});

type Probe = { route: string; run: (token: string | undefined, target: string, own: string) => Promise<Res> };

const opt = (token: string | undefined) => (token ? { token } : {});

const PROBES: Probe[] = [
  {
    route: "GET /api/artifacts/:ref?session=target",
    run: (t, s) => call(`${h.url}/api/artifacts/${data[s]!.short}?session=${s}`, opt(t)),
  },
  {
    route: "GET /api/artifacts/:id?session=target",
    run: (t, s) => call(`${h.url}/api/artifacts/${data[s]!.id}?session=${s}`, opt(t)),
  },
  {
    route: "GET /api/artifacts/:handle (no session)",
    run: (t, s) => call(`${h.url}/api/artifacts/aref:v1:sha256:${data[s]!.id}`, opt(t)),
  },
  {
    route: "GET /api/artifacts/:id?session=own (cross via own session)",
    run: (t, s, own) => call(`${h.url}/api/artifacts/${data[s]!.id}?session=${own}`, opt(t)),
  },
  {
    route: "GET /api/artifacts/:short?session=own (cross via own session)",
    run: (t, s, own) => call(`${h.url}/api/artifacts/${data[s]!.short}?session=${own}`, opt(t)),
  },
  {
    route: "HEAD /api/artifacts/:ref?session=target",
    run: (t, s) => call(`${h.url}/api/artifacts/${data[s]!.id}?session=${s}`, { method: "HEAD", ...opt(t) }),
  },
  {
    route: "HEAD /api/artifacts/:id?session=own",
    run: (t, s, own) => call(`${h.url}/api/artifacts/${data[s]!.id}?session=${own}`, { method: "HEAD", ...opt(t) }),
  },
  { route: "GET /api/sessions/:id/artifacts", run: (t, s) => call(`${h.url}/api/sessions/${s}/artifacts`, opt(t)) },
  { route: "GET /api/sessions/:id/metrics", run: (t, s) => call(`${h.url}/api/sessions/${s}/metrics`, opt(t)) },
  { route: "GET /api/sessions/:id/hot-state", run: (t, s) => call(`${h.url}/api/sessions/${s}/hot-state`, opt(t)) },
  { route: "GET /api/sessions/:id/executions", run: (t, s) => call(`${h.url}/api/sessions/${s}/executions`, opt(t)) },
  {
    route: "GET /api/sessions/:id/executions/:execution_id/result",
    run: (t, s) => call(`${h.url}/api/sessions/${s}/executions/${data[s]!.execution}/result`, opt(t)),
  },
  {
    route: "GET /api/sessions/own/executions/<target's execution>/result (cross via own session)",
    run: (t, s, own) => call(`${h.url}/api/sessions/${own}/executions/${data[s]!.execution}/result`, opt(t)),
  },
  {
    route: "GET /api/artifacts/context/:session_id",
    run: (t, s) => call(`${h.url}/api/artifacts/context/${s}`, opt(t)),
  },
  {
    route: "POST /api/chat",
    run: (t, s) => call(`${h.url}/api/chat`, jsonInit({ session_id: s, message: "summarize what I just loaded" }, t)),
  },
  {
    route: "POST /api/artifacts/execute",
    run: (t, s) =>
      call(`${h.url}/api/artifacts/execute`, jsonInit({ session_id: s, tool_name: "list_files", tool_args: {} }, t)),
  },
  {
    route: "POST /api/artifacts?session=target",
    run: (t, s) =>
      call(`${h.url}/api/artifacts?session=${s}`, {
        method: "POST",
        body: "probe",
        headers: { "content-type": "text/plain" },
        ...opt(t),
      }),
  },
  {
    route: "DELETE /api/sessions/:id/artifacts/:ref",
    run: async (t, s) => {
      await h.store.addReference(s, data[s]!.id); // put the reference back: every cell starts from the same state
      return call(`${h.url}/api/sessions/${s}/artifacts/${data[s]!.id}`, { method: "DELETE", ...opt(t) });
    },
  },
];

describe("isolation matrix (tokens × sessions × routes)", () => {
  it("0 cross-session reads; every allowed call succeeds", async () => {
    const crossReads: string[] = [];
    const wrongDenials: string[] = [];
    let cells = 0;
    // DELETE last, so the other probes still find the references.
    for (const probe of PROBES) {
      for (const tok of TOKENS) {
        for (const target of SESSIONS) {
          const own = tok.sees[0] ?? "sess-a";
          const allowed =
            tok.sees.includes(target) &&
            (!probe.route.includes("(cross via own session)") || own === target) &&
            (!probe.route.includes("HEAD /api/artifacts/:id?session=own") || own === target) &&
            (!probe.route.includes("(no session)") || tok.name === "admin");
          const res = await probe.run(tok.token, target, own);
          cells++;
          const cell = `${probe.route} token=${tok.name} target=${target} → ${res.status}`;
          const foreign = SESSIONS.filter(
            (s) => !tok.sees.includes(s) || (probe.route.includes("own") && s !== own && s === target),
          );
          const leaked = foreign.some(
            (s) =>
              res.text.includes(SECRET[s]!) || res.text.includes(data[s]!.id) || res.text.includes(data[s]!.execution),
          );
          if (!allowed && (res.status < 400 || leaked)) crossReads.push(cell);
          if (allowed && res.status >= 400) wrongDenials.push(`${cell} ${res.text.slice(0, 200)}`);
          if (res.status >= 500) wrongDenials.push(`5xx: ${cell}`);
          if (!allowed) expect([401, 403, 404]).toContain(res.status);
        }
      }
    }
    expect(cells).toBe(PROBES.length * TOKENS.length * SESSIONS.length);
    expect(crossReads).toEqual([]);
    expect(wrongDenials).toEqual([]);
  });

  it("GET /api/sessions lists only the token's sessions", async () => {
    for (const tok of TOKENS.filter((t) => t.token && t.name !== "unknown")) {
      const res = await call(`${h.url}/api/sessions`, { token: tok.token! });
      expect(res.json.sessions.map((s: { session_id: string }) => s.session_id).sort()).toEqual([...tok.sees].sort());
    }
  });
});
