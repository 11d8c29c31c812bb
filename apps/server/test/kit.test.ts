import { describe, expect, it } from "vitest";
import { resolveReferences } from "@artifact-refs/resolve";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { SessionExecutions } from "../src/kit/index.js";
import { ByteCache, SelectionCache } from "../src/selection-cache.js";

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
