import { describe, expect, expectTypeOf, it } from "vitest";
import type { ReferenceCandidate as ContextCandidate } from "@artifact-refs/context";
import { resolveReferences, type Candidate } from "@artifact-refs/resolve";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { createKit, RESOLUTION_KIND, SessionExecutions } from "../src/kit/index.js";
import type { ChatContext, ReferenceCandidate, ServerKit } from "../src/index.js";
import { ByteCache, SelectionCache } from "../src/selection-cache.js";

/** Records a read_file of notes.txt in session s1 that returned `result`. */
function readNotes(kit: ServerKit, result: string) {
  return kit.executions.record({
    session_id: "s1",
    tool_name: "read_file",
    tool_args: { path: "notes.txt" },
    artifact_type: "toolform",
    artifact_title: "Read File",
    interaction_type: "form_submit",
    result,
    result_type: "success",
  });
}

describe("SessionExecutions", () => {
  it("keeps executions in the store only: a second instance (or a restart) over the same store sees them all; results stay in the store", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const resolver = (q: string, e: Parameters<typeof resolveReferences>[1]) => resolveReferences(q, e);
    const log = new SessionExecutions(store, undefined, resolver);
    const base = {
      tool_name: "read_file",
      tool_args: { path: "a.txt" },
      artifact_type: "toolform",
      artifact_title: "Read File",
      interaction_type: "form_submit",
      result_type: "success" as const,
    };
    const big = "x".repeat(50_000); // over the inline threshold: stored as an artifact of the session
    const first = await log.record({ ...base, session_id: "s1", result: big });
    await log.record({ ...base, session_id: "s2", result: "two" });
    await log.record({ ...base, session_id: "s1", result: "three" });
    const other = new SessionExecutions(new ArtifactStore({ driver: store.driver }), undefined, resolver);
    expect((await other.list("s1")).map((e) => e.execution_id)).toEqual([
      first.execution_id,
      (await log.list("s1"))[1]!.execution_id,
    ]);
    expect(await other.sessions()).toEqual(["s1", "s2"]);
    expect(await other.list("nobody")).toEqual([]);
    expect((await other.find("s1", first.execution_id))?.result_ref).toBe(first.result_ref);
    expect(await other.find("s1", "exec_missing")).toBeUndefined();
    const context = await other.context("s1");
    expect(context.contextShape().executions[1]?.short_ref).toMatch(/^art:[0-9a-f]{12}/);
    expect(first.result_ref).toMatch(/^[0-9a-f]{64}$/);
    expect(await other.result(first)).toBe(big);
  });
});

describe("the conversation's last resolution", () => {
  it("is a session record: a follow-up resolves against it on another instance and after a restart", async () => {
    const driver = new MemoryDriver();
    const instance = () => createKit(new ArtifactStore({ driver })); // one store client per instance
    const [a, b] = [instance(), instance()];
    const read = (path: string, result: string) =>
      a.executions.record({
        session_id: "s1",
        tool_name: "read_file",
        tool_args: { path },
        artifact_type: "toolform",
        artifact_title: "Read File",
        interaction_type: "form_submit",
        result,
        result_type: "success",
      });
    const readme = await read("README.md", "# Project\nHow to install and run it.");
    const config = await read("config.json", '{ "port": 8080 }');
    const now = await a.chatContext("s1", "what did I just read?");
    expect(now.candidates[0]?.id).toBe(config.execution_id);
    // The next message lands on the other instance.
    const before = await b.chatContext("s1", "and the one before that?");
    expect(before.candidates[0]).toMatchObject({
      id: readme.execution_id,
      reasons: [expect.stringContaining("follow-up")],
    });
    // A restarted instance (nothing in memory) continues the conversation from the store.
    const restarted = instance();
    const other = await restarted.chatContext("s1", "and the other one?");
    expect(other.candidates[0]).toMatchObject({
      id: config.execution_id,
      reasons: expect.arrayContaining([expect.stringContaining("follow-up")]),
    });
    const stored = await new ArtifactStore({ driver }).records.page("s1", RESOLUTION_KIND);
    expect(stored.records).toHaveLength(3);
    // Without the record (a session whose resolution was never stored) the follow-up has nothing to follow.
    expect((await restarted.chatContext("s2", "and the other one?")).candidates).toEqual([]);
  });

  it("a corrupt resolution record is skipped: the follow-up resolves as if there were none, never a failure", async () => {
    const driver = new MemoryDriver();
    const store = new ArtifactStore({ driver });
    const kit = createKit(store);
    await readNotes(kit, "notes");
    await store.records.append("s1", RESOLUTION_KIND, { execution_ids: "not a list" });
    const answer = await kit.chatContext("s1", "what is in notes.txt?");
    expect(answer.candidates[0]?.reasons.join(" ")).not.toContain("follow-up");
    expect(answer.referenced).toHaveLength(1);
  });
});

describe("selection and byte caches", () => {
  it("stay within their bounds, least recently used out first", () => {
    const sel = (n: number) => ({
      selector: { mode: "headtail" as const },
      text: "y".repeat(n),
      chars: n,
      total_chars: n,
      total_lines: 1,
      truncated: false,
    });
    const cache = new SelectionCache(3_000);
    cache.set("a", sel(1_000));
    cache.set("b", sel(1_000));
    expect(cache.get("a")?.chars).toBe(1_000); // a is now the most recent
    cache.set("c", sel(1_000));
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    cache.set("huge", sel(10_000)); // larger than the whole cache: not kept
    expect(cache.get("huge")).toBeUndefined();
    const off = new SelectionCache(0);
    off.set("a", sel(1));
    expect(off.get("a")).toBeUndefined();
    const bytes = new ByteCache(100);
    bytes.set("k1", Buffer.alloc(60));
    bytes.set("k2", Buffer.alloc(60));
    expect(bytes.get("k1")).toBeUndefined();
    expect(bytes.get("k2")?.byteLength).toBe(60);
  });

  it("keys a selector canonically", () => {
    expect(SelectionCache.key("id", { mode: "grep", pattern: "a", context: 1 })).toBe(
      SelectionCache.key("id", { context: 1, pattern: "a", mode: "grep" } as never),
    );
    expect(SelectionCache.key("id", { mode: "grep", pattern: "a" })).not.toBe(
      SelectionCache.key("id", { mode: "grep", pattern: "b" }),
    );
  });
});

describe("ReferenceCandidate", () => {
  it("is one type: the resolve package's candidate, in the context package, the kit and the server's exports", async () => {
    expectTypeOf<ReferenceCandidate>().toEqualTypeOf<Candidate>();
    expectTypeOf<ContextCandidate>().toEqualTypeOf<Candidate>();
    expectTypeOf<ChatContext["candidates"][number]>().toEqualTypeOf<Candidate>();
    // At run time: the kit hands on resolveReferences' candidates as they are (the chat route names `id` `execution_id`).
    const kit = createKit(new ArtifactStore({ driver: new MemoryDriver() }));
    const done = await readNotes(kit, "meeting notes");
    const ctx = await kit.chatContext("s1", "what is in notes.txt?");
    expect(ctx.candidates[0]).toEqual({ id: done.execution_id, score: expect.any(Number), reasons: expect.any(Array) });
  });
});
