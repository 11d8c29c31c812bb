import { describe, expect, it } from "vitest";
import { resolveReferences } from "@artifact-refs/resolve";
import { ArtifactStore, MemoryDriver } from "@artifact-refs/store";
import { SessionExecutions } from "../src/kit/index.js";
import { ByteCache, SelectionCache } from "../src/selection-cache.js";

describe("SessionExecutions", () => {
  it("keeps at most maxSessions contexts, dropping the least recently used; results stay in the store", async () => {
    const store = new ArtifactStore({ driver: new MemoryDriver() });
    const log = new SessionExecutions(store, undefined, (q, e) => resolveReferences(q, e), 2);
    const base = { tool_name: "read_file", tool_args: { path: "a.txt" }, artifact_type: "toolform", artifact_title: "Read File", interaction_type: "form_submit", result_type: "success" as const };
    const big = "x".repeat(50_000); // over the inline threshold: stored as an artifact of the session
    const first = await log.record({ ...base, session_id: "s1", result: big });
    await log.record({ ...base, session_id: "s2", result: "two" });
    await log.list("s1"); // a read does not make a session recently used; a record does
    log.context("s1"); // …and so does using its context
    await log.record({ ...base, session_id: "s3", result: "three" });
    expect(await log.sessions()).toEqual(["s1", "s3"]);
    expect(await log.list("s2")).toEqual([]);
    expect(first.result_ref).toMatch(/^[0-9a-f]{64}$/);
    expect(await store.getText(first.result_ref!, { session: "s1" })).toBe(big);
  });
});

describe("selection and byte caches", () => {
  it("stay within their bounds, least recently used out first", () => {
    const sel = (n: number) => ({ selector: { mode: "headtail" as const }, text: "y".repeat(n), chars: n, total_chars: n, total_lines: 1, truncated: false });
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
    expect(SelectionCache.key("id", { mode: "grep", pattern: "a", context: 1 })).toBe(SelectionCache.key("id", { context: 1, pattern: "a", mode: "grep" } as never));
    expect(SelectionCache.key("id", { mode: "grep", pattern: "a" })).not.toBe(SelectionCache.key("id", { mode: "grep", pattern: "b" }));
  });
});
