import { ExecutionRecordSchema, hasErrorCode } from "@artifact-refs/schema";
import { resolveReferences } from "@artifact-refs/resolve";
import { describe, expect, it } from "vitest";
import {
  ArtifactsGetTool,
  ExecutionContext,
  ExecutionContextShapeSchema,
  isInjected,
  summarizeExecution,
  type ReferenceResolver,
} from "../src/internal.js";
import { bigLog, memoryStore } from "./helpers.js";

const session = "sess-exec";

/** Matches file names mentioned in the query against `path` arguments (the docs/ARCHITECTURE.md §executions content references). */
const byFileName: ReferenceResolver = (query, executions) => ({
  candidates: executions
    .filter((e) => typeof e.tool_args?.path === "string" && query.includes(String(e.tool_args.path).split("/").pop()!))
    .map((e) => ({ id: e.id!, score: 1, reasons: [`mentions ${String(e.tool_args?.path)}`] })),
});

describe("ExecutionContext", () => {
  it("records executions with results as references and summaries (docs/ARCHITECTURE.md §executions)", async () => {
    const store = memoryStore();
    const ctx = new ExecutionContext({ session, store });
    const readme = "# My Project\n\nThis is a sample project.\n";
    const small = await ctx.record({
      tool_name: "builtin.read_file",
      tool_args: { path: "README.md" },
      result: readme,
    });
    expect(ExecutionRecordSchema.parse(small)).toEqual(small);
    expect(small.result_inline).toBe(readme);
    expect(small.result_ref).toBeUndefined();
    expect(small.result_summary).toBe("Loaded README.md (0.0 KB)");
    const big = await ctx.record({
      tool_name: "builtin.execute_bash_command",
      tool_args: { command: "pytest" },
      result: bigLog(40_000),
      interaction_type: "batch_execute",
    });
    expect(big.result_ref).toMatch(/^[0-9a-f]{64}$/);
    expect(await ctx.resultText(big)).toBe(bigLog(40_000));
    expect(big.result_summary).toMatch(/^Executed pytest \(39\.\d KB of output\)$/);
    expect(ctx.lastExecution).toEqual(big);
    expect(ctx.recentTools).toEqual(["builtin.execute_bash_command", "builtin.read_file"]);
    expect(ctx.recentFiles).toEqual(["README.md"]);
    // the reference is fetchable with artifacts_get right away
    const shape = ctx.contextShape();
    const tool = new ArtifactsGetTool({ store, session });
    expect(await tool.handle({ ref: shape.executions[0]!.short_ref })).toMatch(/^\[artifacts_get: \d+ chars of art:/m);
  });

  it("builds the context message: recent + referenced, large results as references, tagged injected", async () => {
    const ctx = new ExecutionContext({
      session,
      store: memoryStore(),
      config: { executions: { recentLimit: 1 } },
      resolveReferences: byFileName,
    });
    await ctx.record({ tool_name: "read_file", tool_args: { path: "src/config.yaml" }, result: "port: 8080\n" });
    await ctx.record({ tool_name: "list_files", tool_args: { path: "src" }, result: "a.py\nb.py\n" });
    await ctx.record({ tool_name: "run_tests", tool_args: {}, result: bigLog(30_000) });
    const msg = (await ctx.buildContextMessage({ query: "what port is in config.yaml?" }))!;
    expect(msg.role).toBe("system");
    expect(isInjected(msg.content)).toBe(true);
    expect(msg.execution_ids).toHaveLength(2);
    expect(msg.referenced[0]!.reasons[0]).toMatch(/config\.yaml/);
    expect(msg.content).toContain("port: 8080");
    expect(msg.content).toMatch(
      /Result: \d+ bytes, not included\. Read it with artifacts_get \{"ref":"art:[0-9a-f]{12}"/,
    );
    expect(msg.content).not.toContain("list_files");
    expect(msg.content.length).toBeLessThan(2_000);
  });

  it("honours TTL in turns, auto-inject off and per-session overrides", async () => {
    const ctx = new ExecutionContext({ session, store: memoryStore() });
    await ctx.record({ tool_name: "read_file", tool_args: { path: "a.txt" }, result: "A", ttlTurns: 1 });
    await ctx.record({ tool_name: "read_file", tool_args: { path: "b.txt" }, result: "B" });
    ctx.nextTurn();
    ctx.nextTurn();
    expect(ctx.live().map((e) => e.tool_args.path)).toEqual(["b.txt"]);
    expect(ctx.contextShape().executions.map((e) => e.in_context)).toEqual([true, false]);
    ctx.setOverrides({ autoInject: false });
    expect(await ctx.buildContextMessage()).toBeUndefined();
    expect(await ctx.buildContextMessage({ force: true })).toBeDefined();
    ctx.setOverrides({ summarizeThreshold: 0 });
    expect((await ctx.buildContextMessage())!.content).toMatch(/Result: 1 bytes, not included/);
    expect(() => ctx.setOverrides({ maxContextItems: 0 })).toThrow(/invalid session overrides: maxContextItems/);
  });

  it("serves the §executions context shape and round-trips its state", async () => {
    const store = memoryStore();
    const ctx = new ExecutionContext({ session, store });
    await ctx.record({
      tool_name: "read_file",
      tool_args: { path: "README.md" },
      result: "hello",
      artifact_title: "Read File",
    });
    ctx.nextTurn();
    const shape = ExecutionContextShapeSchema.parse(ctx.contextShape());
    expect(shape).toMatchObject({
      session_id: session,
      turn: 1,
      recent_files: ["README.md"],
      recent_tools: ["read_file"],
    });
    expect(shape.executions[0]).toMatchObject({
      artifact_title: "Read File",
      summary: "Loaded README.md (0.0 KB)",
      result_type: "success",
    });
    const copy = ExecutionContext.fromJSON(JSON.parse(JSON.stringify(ctx)), { store });
    expect(copy.contextShape()).toEqual(shape);
    expect(() => ExecutionContext.fromJSON({ session_id: session }, { store })).toThrow(/invalid execution state/);
  });

  it("resolves the user's words with the Resolution package by default (the §executions examples)", async () => {
    const ctx = new ExecutionContext({ session, store: memoryStore(), config: { executions: { recentLimit: 0 } } });
    const config = await ctx.record({
      tool_name: "builtin.read_file",
      tool_args: { path: "config/settings.yaml" },
      result: "port: 8080\n",
    });
    await ctx.record({ tool_name: "builtin.list_files", tool_args: { path: "src" }, result: "main.py\nutils.py\n" });
    const readme = await ctx.record({
      tool_name: "builtin.read_file",
      tool_args: { path: "README.md" },
      result: "# My Project\n",
    });
    const just = (await ctx.buildContextMessage({ query: "Summarize what I just loaded" }))!;
    expect(just.execution_ids[0]).toBe(readme.execution_id);
    expect(just.content).toContain("# My Project");
    const cfg = (await ctx.buildContextMessage({ query: "what port is in the settings file I opened?" }))!;
    expect(cfg.execution_ids).toContain(config.execution_id);
    expect(cfg.referenced.find((r) => r.id === config.execution_id)!.reasons.length).toBeGreaterThan(0);
    expect(await ctx.buildContextMessage({ query: "hello there" })).toBeUndefined();
  });

  it("passes timestamps and stored results to the resolver: clock phrases and stashes work from the kit", async () => {
    let clock = Date.parse("2026-03-02T09:00:00Z");
    const ctx = new ExecutionContext({ session, store: memoryStore(), now: () => new Date(clock) });
    const early = await ctx.record({
      tool_name: "builtin.read_file",
      tool_args: { path: "notes/plan.md" },
      result: "plan\n",
    });
    clock += 55 * 60_000;
    const stored = await ctx.record({
      tool_name: "builtin.execute_bash_command",
      tool_args: { command: "make report" },
      result: bigLog(40_000),
    });
    clock += 4 * 60_000;
    const late = await ctx.record({
      tool_name: "builtin.read_file",
      tool_args: { path: "notes/todo.md" },
      result: "todo\n",
    });
    const xs = ctx.resolutionExecutions();
    expect(xs.map((x) => x.timestamp)).toEqual([early.timestamp, stored.timestamp, late.timestamp]);
    expect(xs[1]!.result_ref).toBe(stored.result_ref);
    expect(xs[0]!.result_ref).toBeUndefined();
    const now = new Date(clock);
    expect(resolveReferences("the file I looked at about an hour ago", xs, { now }).candidates[0]?.id).toBe(
      early.execution_id,
    );
    expect(resolveReferences("what did I just stash?", xs, { now }).candidates[0]?.id).toBe(stored.execution_id);
  });

  it("recalls top executions within recall.maxItems and maxChars (docs/ARCHITECTURE.md §memory), explicit references first", async () => {
    const ctx = new ExecutionContext({
      session,
      store: memoryStore(),
      config: { recall: { maxItems: 3, maxChars: 400 } },
    });
    for (let i = 0; i < 8; i++)
      await ctx.record({ tool_name: "read_file", tool_args: { path: `src/file_${i}.py` }, result: `content ${i}\n` });
    await ctx.record({ tool_name: "run_tests", tool_args: {}, result: bigLog(20_000) });
    const r = ctx.recall("what did src/file_2.py contain?");
    expect(r.items.length).toBeGreaterThan(0);
    expect(r.items.length).toBeLessThanOrEqual(3);
    expect(r.chars).toBeLessThanOrEqual(400);
    expect(r.items[0]!.text).toContain("src/file_2.py");
    expect(r.items.some((i) => /^art:[0-9a-f]{12}$/.test(i.ref))).toBe(
      r.items.some((i) => i.text.includes("run_tests")),
    );
    ctx.setOverrides({ recallEnabled: false });
    expect(ctx.recall("anything").items).toEqual([]);
  });

  it("redacts results before storing them", async () => {
    const store = memoryStore();
    const ctx = new ExecutionContext({ session, store });
    const e = await ctx.record({ tool_name: "env", result: `AWS key AKIA${"QX7Z".repeat(4)}` });
    expect(e.result_inline).toBe("AWS key [REDACTED:aws_access_key]");
    const withArgs = await ctx.record({
      tool_name: "sh",
      tool_args: { command: `export KEY=AKIA${"QX7Z".repeat(4)}` },
      result: "ok",
    });
    expect(withArgs.tool_args).toEqual({ command: "export KEY=[REDACTED:aws_access_key]" });
  });

  it("summarizes like §executions and rejects a bad session", () => {
    expect(summarizeExecution("builtin.list_files", { path: "src" }, "a\nb\n\nc\n")).toBe("Listed 3 items in src");
    expect(summarizeExecution("builtin.write_file", { path: "x.py" }, "")).toBe("Wrote to x.py");
    expect(summarizeExecution("fetch_url", {}, "x".repeat(2048), "error")).toBe("Executed fetch_url (2.0 KB) [error]");
    expect(() => new ExecutionContext({ session: "a b", store: memoryStore() })).toThrow(/session id/);
    let error: unknown;
    try {
      new ExecutionContext({ session, store: memoryStore(), overrides: { recentLimit: -1 } });
    } catch (e) {
      error = e;
    }
    expect(hasErrorCode(error, "CONFIG_INVALID")).toBe(true);
  });
});
