import { describe, expect, it } from "vitest";
import { ArtifactStore, type Driver, MemoryDriver } from "@artifact-refs/store";
import { createServer } from "../src/index.js";
import { makeWorkspace } from "./helpers.js";

/**
 * A session with 100,000 execution records (issue 18, bad input): the first page of the timeline
 * is a page (100 records and a cursor), and what it costs is bounded by the page, not the session:
 * the keys listed and the records read are counted at the driver. (Timings are in the
 * bench:records benchmark, not here.) Two shapes: one record per second, and a burst (all in 100 s).
 */
const N = 100_000;

function counted(driver: Driver) {
  const counts = { lists: 0, keys: 0, gets: 0 };
  const proxy = new Proxy(driver, {
    get(target, prop) {
      if (prop === "list")
        return async function* (prefix: string) {
          counts.lists++;
          for await (const entry of target.list(prefix)) {
            counts.keys++;
            yield entry;
          }
        };
      if (prop === "get")
        return (key: string) => {
          counts.gets++;
          return target.get(key);
        };
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { proxy, counts };
}

const record = (i: number, session: string, at: number) => ({
  record: {
    execution_id: `exec_${i}`,
    session_id: session,
    timestamp: new Date(at).toISOString(),
    artifact_type: "toolform",
    artifact_title: "Read File",
    tool_name: "read_file",
    tool_args: { path: `src/file-${i % 500}.ts` },
    result_inline: `contents of file ${i}`,
    interaction_type: "form_submit",
    result_type: "success",
    result_summary: `Loaded src/file-${i % 500}.ts`,
    result_size: 20,
    is_referenceable: true,
    context_ttl: 10,
  },
  turn: 0,
});

describe("a session with 100,000 records", () => {
  it("GET executions answers the first page paged, reading a bounded part of the session (both shapes)", async () => {
    const memory = new MemoryDriver();
    const { proxy, counts } = counted(memory);
    let clock = Date.now();
    const writer = new ArtifactStore({
      driver: memory,
      now: () => new Date(clock),
      records: { maxRecords: N, pruneEvery: N + 1 },
    });
    const shapes = { spread: 1_000, burst: 1 } as const; // ms between records
    for (const [session, step] of Object.entries(shapes)) {
      clock = Date.now() - N * step - 5_000;
      for (let i = 0; i < N; ) {
        // The store reads its clock when an append starts: a batch in flight still gets one time per record.
        const batch: Promise<unknown>[] = [];
        for (const end = Math.min(N, i + 2_000); i < end; i++) {
          batch.push(writer.records.append(session, "execution", record(i, session, clock)));
          clock += step;
        }
        await Promise.all(batch);
      }
    }
    const ws = await makeWorkspace();
    const server = await createServer({
      store: new ArtifactStore({ driver: proxy }),
      workspace: ws.root,
      ui: false,
      rateLimit: false,
    });
    try {
      for (const session of Object.keys(shapes)) {
        Object.assign(counts, { lists: 0, keys: 0, gets: 0 });
        const res = await server.app.inject({ method: "GET", url: `/api/sessions/${session}/executions?limit=100` });
        expect(res.statusCode).toBe(200);
        const page = res.json();
        expect(page.executions).toHaveLength(100);
        expect(page.executions.at(-1).execution_id).toBe(`exec_${N - 1}`);
        expect(page.executions[0].execution_id).toBe(`exec_${N - 100}`);
        expect(page.before).toMatch(/^\d{13}-/);
        // Bounded by the page (seen: 154 keys in 15 listings spread, 716 keys in 27 listings burst),
        // never the session: at most 1 % of its keys, and only the page's records are read.
        expect(counts.keys, `${session}: keys listed`).toBeLessThanOrEqual(N / 100);
        expect(counts.gets, `${session}: records read`).toBeLessThanOrEqual(110);
        expect(counts.lists, `${session}: listings`).toBeLessThanOrEqual(60);
        // The next page continues exactly where the first ended.
        const next = (
          await server.app.inject({
            method: "GET",
            url: `/api/sessions/${session}/executions?limit=100&before=${page.before}`,
          })
        ).json();
        expect(next.executions.at(-1).execution_id).toBe(`exec_${N - 101}`);
        expect(next.executions).toHaveLength(100);
      }
    } finally {
      await server.close();
      await ws.cleanup();
    }
  }, 300_000);
});
