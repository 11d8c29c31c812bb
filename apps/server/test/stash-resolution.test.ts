import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/index.js";
import { ADMIN, call, jsonInit, makeWorkspace } from "./helpers.js";

/**
 * Stashes count (issue 15): "what I just stashed" resolves to the newest artifact stashed into the
 * session, whether a tool execution stored it or it was stashed directly, here through the HTTP API
 * and through the CLI (another process, same fs store).
 */
const CLI = fileURLToPath(new URL("../../cli/dist/bin.js", import.meta.url));
const SESSION = "stashes";
let base: string;
let ws: Awaited<ReturnType<typeof makeWorkspace>>;
let server: RunningServer;

beforeAll(async () => {
  if (!existsSync(CLI))
    throw new Error(
      `${CLI} is missing: build the CLI first (pnpm exec turbo run build --filter=@artifact-refs/cli...)`,
    );
  base = await mkdtemp(join(tmpdir(), "aref-stash-resolution-"));
  ws = await makeWorkspace();
  server = await startServer({
    store: join(base, "store"),
    workspace: ws.root,
    tokens: { admin: ADMIN },
    rateLimit: false,
    ui: false,
  });
});
afterAll(async () => {
  await server?.close();
  await ws?.cleanup();
  if (base) await rm(base, { recursive: true, force: true });
});

const chat = (message: string) => call(`${server.url}/api/chat`, jsonInit({ session_id: SESSION, message }, ADMIN));

/** Asks until the answer's best candidate is `id` (another process's write shows within the access-cache time). */
async function bestCandidate(message: string, id: string) {
  const until = Date.now() + 5_000;
  for (;;) {
    const res = await chat(message);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    if (res.json.candidates[0]?.execution_id === id || Date.now() > until) return res.json;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("what I just stashed", () => {
  it("is the newest stash into the session: an execution's stored result, an API stash, then a CLI stash", async () => {
    const read = await call(
      `${server.url}/api/artifacts/execute`,
      jsonInit({ session_id: SESSION, tool_name: "read_file", tool_args: { path: "README.md" } }, ADMIN),
    );
    expect(read.status).toBe(200);
    const api = await call(
      `${server.url}/api/artifacts`,
      jsonInit({ session: SESSION, content: "deploy checklist\n- tag the release\n", label: "checklist.md" }, ADMIN),
    );
    expect(api.status, api.text).toBe(201);
    const apiRef = `art:${api.json.artifact_id.slice(0, 12)}`;
    const afterApi = await bestCandidate("what did I just stash?", apiRef);
    expect(afterApi.candidates[0]).toMatchObject({ execution_id: apiRef });
    // The read_file execution is still a candidate: a stash record is added, never replaces executions.
    const again = await chat("what is in README.md?");
    expect(again.json.candidates[0].execution_id).toBe(read.json.execution_id);

    const file = join(base, "notes-from-cli.txt");
    await writeFile(file, "benchmark notes: p50 12 ms\n");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [CLI, "stash", file, "--store", join(base, "store"), "--session", SESSION, "--json"],
      { env: { ...process.env, NO_COLOR: "1" } },
    );
    const cli = JSON.parse(stdout) as { artifact_id: string };
    const cliRef = `art:${cli.artifact_id.slice(0, 12)}`;
    const afterCli = await bestCandidate("show me what I just saved", cliRef);
    expect(afterCli.candidates[0]).toMatchObject({ execution_id: cliRef });
    expect(afterCli.candidates.map((c: { execution_id: string }) => c.execution_id)).toContain(apiRef);
    // The follow-up goes back from the CLI stash to the API stash.
    const before = await chat("and the one before that?");
    expect(before.json.candidates[0]).toMatchObject({
      execution_id: apiRef,
      reasons: expect.arrayContaining([expect.stringContaining("follow-up")]),
    });
  });
});
