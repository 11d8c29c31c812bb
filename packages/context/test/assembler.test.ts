import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens, jsonlSink } from "@artifact-refs/budget";
import { serializeHotState } from "@artifact-refs/hot-state";
import { RecallIndex } from "@artifact-refs/resolve";
import { PromptMetricsSchema, hasErrorCode, type HotState, type PromptMetrics } from "@artifact-refs/schema";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  HOT_STATE_PREFIX,
  HOT_STATE_UPDATE_PREFIX,
  PromptAssembler,
  applyHotStateDelta,
  defaultStrategy,
  hotStateDelta,
  reachableFromCheckpoint,
  readCheckpoint,
  stableJson,
  storedForm,
  callCost,
  type CountedPart,
  type HistoryMessage,
  type PromptAssemblerOptions,
} from "../src/internal.js";
import { bigLog, memoryStore, tempDir } from "./helpers.js";

const counter = { count: (text: string) => countTokens(text) };
const SYSTEM = "You are a careful coding agent. Use one shell command per reply.";
const TASK = "Fix the failing test in parser.py: the tokenizer drops the last line when it has no newline.";

const hotBase = hot;
function hot(extra: Partial<HotState> = {}): HotState {
  return { session_id: "s1", objective: "fix parser.py", ...extra };
}

/** A conversation of `turns` turns: assistant action + tool output of `outputChars` chars. */
function conversation(turns: number, outputChars = 600): HistoryMessage[] {
  const h: HistoryMessage[] = [
    { role: "system", content: SYSTEM },
    { role: "user", content: TASK },
  ];
  for (let t = 1; t <= turns; t++) {
    h.push({
      role: "assistant",
      content: `THOUGHT: step ${t}\n\`\`\`bash\ngrep -n token parser.py | head -${t}\n\`\`\``,
    });
    h.push({ role: "tool", tool_name: "bash", content: bigLog(outputChars, t).slice(0, outputChars) });
  }
  return h;
}

function assembler(options: Partial<PromptAssemblerOptions> = {}): PromptAssembler {
  return new PromptAssembler({ store: memoryStore(), session: "s1", tokenCounter: counter, ...options });
}

describe("defaultStrategy", () => {
  it("follows the provider's prompt caching", () => {
    expect(defaultStrategy("anthropic")).toBe("append");
    expect(defaultStrategy("OpenAI")).toBe("append");
    expect(defaultStrategy("ollama")).toBe("window");
    expect(defaultStrategy("some-unknown-provider")).toBe("window");
    expect(defaultStrategy({ promptCaching: true })).toBe("append");
    expect(defaultStrategy(undefined)).toBe("window");
    expect(assembler({ provider: "anthropic" }).strategy).toBe("append");
    expect(assembler({ provider: "llama.cpp" }).strategy).toBe("window");
  });
});

describe("configuration errors", () => {
  it("rejects keepTurns below 2, bad budgets and unknown strategies", () => {
    expect(() => assembler({ keepTurns: 1 })).toThrow(/keepTurns must be an integer ≥ 2/);
    expect(() => assembler({ budgets: { maxPromptTokens: 0 } })).toThrow(/maxPromptTokens must be a positive integer/);
    expect(() => assembler({ strategy: "sliding" as never })).toThrow(/unknown assembly strategy/);
    expect(() => assembler({ session: "../etc" })).toThrow(/session id/);
    expect(() => assembler({ budgets: { maxPromptTokens: 500 } })).toThrow(
      /maxHotStateTokens must not exceed maxPromptTokens/,
    );
  });

  it("validates the hot state", async () => {
    const a = assembler();
    await expect(
      a.assemble({ history: conversation(1), hotState: { objective: "no session" } as unknown as HotState }),
    ).rejects.toSatisfy((e) => hasErrorCode(e, "INVALID_INPUT"));
  });
});

describe("window strategy", () => {
  it("keeps system, task, hot state and the last two turns; the rest is reachable from the checkpoint", async () => {
    const store = memoryStore();
    const a = assembler({ store, strategy: "window" });
    const history = conversation(6);
    const p = await a.assemble({ history, hotState: hot() });
    expect(p.parts[0]).toMatchObject({ kind: "system", source: 0 });
    expect(p.parts[0]!.message.content).toBe(SYSTEM);
    expect(p.parts.find((x) => x.kind === "task")!.message.content).toBe(TASK);
    expect(p.parts.find((x) => x.kind === "hot_state")!.message.content).toBe(
      `${HOT_STATE_PREFIX}${serializeHotState(hot())}`,
    );
    // last two turns = messages 10..13
    expect(p.included).toEqual([0, 1, 10, 11, 12, 13]);
    expect(p.omitted).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(p.checkpoint).toBeDefined();
    const ckptPart = p.parts.find((x) => x.kind === "checkpoint")!;
    expect(ckptPart.message.content).toContain(p.checkpoint!.shortRef);
    const reachable = await reachableFromCheckpoint(store, p.checkpoint!.handle, "s1");
    for (const i of p.omitted) expect(reachable.get(i)?.content).toBe(history[i]!.content);
    expect(p.tokens).toBeLessThanOrEqual(8_000);
    expect(p.violations).toEqual([]);
  });

  it("chains checkpoints: each call adds only the newly dropped turn, and all history stays reachable", async () => {
    const store = memoryStore();
    const a = assembler({ store, strategy: "window" });
    const history = conversation(8);
    const seen = new Set<string>();
    for (let n = 4; n <= history.length; n += 2) {
      const p = await a.assemble({ history: history.slice(0, n), hotState: hot() });
      if (p.checkpoint) seen.add(p.checkpoint.artifactId);
      if (p.omitted.length > 0) {
        const reachable = await reachableFromCheckpoint(store, p.checkpoint!.shortRef, "s1");
        expect([...reachable.keys()].sort((x, y) => x - y)).toEqual(p.omitted);
      }
    }
    expect(seen.size).toBe(6);
    const pack = await readCheckpoint(store, a.checkpoint!.handle, "s1");
    expect(pack.previous).toMatch(/^aref:v1:sha256:[0-9a-f]{64}$/);
    expect(pack.summary.some((line) => line.includes("grep -n token parser.py"))).toBe(true);
  });

  it("never drops a reference: every compacted tool result's reference is in a pack's index", async () => {
    const store = memoryStore();
    const a = assembler({ store, strategy: "window" });
    const history = conversation(6, 5_000);
    const refs = new Map<number, string>();
    for (let n = 4; n <= history.length; n += 2) {
      const p = await a.assemble({ history: history.slice(0, n), hotState: hot() });
      for (const part of p.parts) if (part.source !== undefined && part.ref) refs.set(part.source, part.ref);
    }
    const indexed = new Set<string>();
    let handle: string | null = a.checkpoint!.handle;
    while (handle) {
      const pack = await readCheckpoint(store, handle, "s1");
      for (const e of pack.index) indexed.add(e.artifact_id);
      handle = pack.previous;
    }
    const compacted = [3, 5, 7, 9]; // tool results of the four oldest turns
    for (const i of compacted) expect(indexed.has(`art:${refs.get(i)!.slice(0, 12)}`), `message #${i}`).toBe(true);
  });

  it("is deterministic: two assemblers give byte-identical prompts", async () => {
    const history = conversation(5);
    const a = await assembler({ strategy: "window" }).assemble({ history, hotState: hot() });
    const b = await assembler({ strategy: "window" }).assemble({ history, hotState: hot() });
    expect(a.parts.map((p) => p.text)).toEqual(b.parts.map((p) => p.text));
  });

  it("moves the oldest kept turns into the checkpoint rather than exceeding the budget", async () => {
    const a = assembler({ strategy: "window", keepTurns: 6, budgets: { maxPromptTokens: 2_000 } });
    const history = conversation(6, 1_500);
    const p = await a.assemble({ history, hotState: hot() });
    expect(p.tokens).toBeLessThanOrEqual(2_000);
    expect(p.violations).toEqual([]);
    expect(p.cuts.some((c) => c.reason === "maxPromptTokens" && c.recover === "checkpoint")).toBe(true);
    // still the last two turns
    for (const i of [10, 11, 12, 13]) expect(p.included).toContain(i);
  });
});

describe("append strategy", () => {
  it("keeps each prompt a byte-identical extension of the previous one until the budget, then compacts", async () => {
    const store = memoryStore();
    const a = assembler({ store, strategy: "append", budgets: { maxPromptTokens: 3_000 } });
    const history = conversation(20, 900);
    let prev: string | undefined;
    let compactions = 0;
    for (let n = 2; n <= history.length; n += 2) {
      const p = await a.assemble({ history: history.slice(0, n), hotState: hot() });
      const text = p.parts.map((x) => x.text).join("");
      expect(p.tokens).toBeLessThanOrEqual(3_000);
      expect(p.violations).toEqual([]);
      if (p.compacted) {
        compactions++;
        expect(p.checkpoint).toBeDefined();
        const reachable = await reachableFromCheckpoint(store, p.checkpoint!.handle, "s1");
        for (const i of p.omitted) expect(reachable.has(i)).toBe(true);
        // The system prompt and task stay a cached prefix even across compaction.
        expect(text.startsWith(p.parts[0]!.text + p.parts[1]!.text)).toBe(true);
      } else if (prev !== undefined) {
        expect(text.startsWith(prev)).toBe(true);
      }
      prev = text;
    }
    expect(compactions).toBeGreaterThan(1);
  });

  it('appendCompaction "cost" compacts before the budget when a longer run costs more, and costs less', async () => {
    const history = conversation(40, 900);
    const run = async (rule: "budget" | "cost") => {
      const store = memoryStore();
      const a = assembler({ store, strategy: "append", appendCompaction: rule, budgets: { maxPromptTokens: 16_000 } });
      let prev: CountedPart[] | undefined;
      let cost = 0;
      let compactions = 0;
      for (let n = 2; n <= history.length; n += 2) {
        const p = await a.assemble({ history: history.slice(0, n), hotState: hot() });
        expect(p.violations).toEqual([]);
        if (p.compacted) {
          compactions++;
          const reachable = await reachableFromCheckpoint(store, p.checkpoint!.handle, "s1");
          for (const i of p.omitted) expect(reachable.has(i)).toBe(true);
        }
        cost += callCost(prev, p.parts, counter.count).cost;
        prev = p.parts;
      }
      return { cost, compactions };
    };
    const budget = await run("budget");
    const cost = await run("cost");
    expect(cost.compactions).toBeGreaterThan(budget.compactions);
    expect(cost.cost).toBeLessThan(budget.cost);
    expect(() => assembler({ appendCompaction: "never" as never })).toThrow(/unknown appendCompaction/);
  });

  it("appends hot state updates as deltas that add up to the current hot state", async () => {
    const a = assembler({ strategy: "append" });
    const history = conversation(4);
    // A constraint the messages do not show: the hot state is never left out.
    const hot = (extra: Partial<HotState> = {}) => hotBase({ constraints: ["keep the public API"], ...extra });
    const states: HotState[] = [
      hot(),
      hot({ artifact_index: [{ artifact_id: "art:0123456789ab", type: "tool_output", label: "bash #3" }] }),
      hot({
        artifact_index: [
          { artifact_id: "art:0123456789ab", type: "tool_output", label: "bash #3" },
          { artifact_id: "art:abcdefabcdef", type: "tool_output", label: "bash #5" },
        ],
        last_successful_step: "reproduced",
      }),
    ];
    let last;
    for (let k = 0; k < states.length; k++) {
      last = await a.assemble({ history: history.slice(0, 4 + 2 * k), hotState: states[k]! });
      expect(last.compacted).toBe(false);
    }
    const hsParts = last!.parts.filter((p) => p.kind === "hot_state").map((p) => p.message.content);
    expect(hsParts).toHaveLength(3);
    let state = JSON.parse(hsParts[0]!.slice(HOT_STATE_PREFIX.length)) as HotState;
    for (const update of hsParts.slice(1)) {
      expect(update.startsWith(HOT_STATE_UPDATE_PREFIX)).toBe(true);
      state = applyHotStateDelta(state, JSON.parse(update.slice(HOT_STATE_UPDATE_PREFIX.length)));
    }
    expect(stableJson(state)).toBe(stableJson(states[2]));
  });
});

describe("hot state deltas", () => {
  const e = (id: string) => ({
    artifact_id: `art:${id.repeat(12).slice(0, 12)}`,
    type: "tool_output" as const,
    label: id,
  });
  const cases: Array<[string, HotState, HotState]> = [
    ["no change", hot(), hot()],
    ["entry added", hot(), hot({ artifact_index: [e("a")] })],
    ["oldest evicted, one added", hot({ artifact_index: [e("a"), e("b")] }), hot({ artifact_index: [e("b"), e("c")] })],
    ["reordered", hot({ artifact_index: [e("a"), e("b")] }), hot({ artifact_index: [e("b"), e("a")] })],
    ["key removed and key set", hot({ risk_level: "high" }), hot({ open_questions: ["why?"] })],
    ["index emptied", hot({ artifact_index: [e("a")] }), hot()],
  ];
  for (const [name, a, b] of cases) {
    it(`apply(base, delta(base, next)) == next: ${name}`, () => {
      const d = hotStateDelta(a, b);
      if (name === "no change") expect(d).toBeUndefined();
      const out = d === undefined ? a : applyHotStateDelta(a, d);
      expect(stableJson(out)).toBe(stableJson(b));
    });
  }
});

describe("bootstrap ArtifactRefs (docs/ARCHITECTURE.md §references)", () => {
  it("puts a task above the threshold in the prompt as an ArtifactRef with a head/tail excerpt", async () => {
    const store = memoryStore();
    const bigTask = `${TASK}\n${bigLog(20_000)}`;
    const a = assembler({ store, strategy: "window" });
    const history: HistoryMessage[] = [
      { role: "system", content: SYSTEM },
      { role: "user", content: bigTask },
    ];
    const p = await a.assemble({ history, hotState: hot() });
    const task = p.parts.find((x) => x.kind === "task")!;
    const sha = createHash("sha256").update(bigTask).digest("hex");
    expect(task.message.content).toMatch(
      new RegExp(
        `^ArtifactRef: ${sha} \\(type=text/plain, sha256=${sha}, bytes=${Buffer.byteLength(bigTask)}, createdAt=[0-9T:.Z-]+\\)\\n\\nSummary \\(head/tail excerpt\\):\\n`,
        "m",
      ),
    );
    expect(task.message.content.length).toBeLessThan(5_000);
    expect(task.message.content.startsWith(`task message #1 art:${sha.slice(0, 12)}`)).toBe(true);
    expect(await store.getText(sha)).toBe(bigTask);
    expect(p.metrics.ref_files).toBe(1);
  });

  it("inlines small workspace files and references large ones", async () => {
    const store = memoryStore();
    const a = assembler({
      store,
      bootstrapFiles: [
        { name: "AGENTS.md", content: "# Agents\nBe brief." },
        { name: "SOUL.md", content: bigLog(9_000) },
      ],
    });
    const p = await a.assemble({ history: conversation(0), hotState: hot() });
    const files = p.parts.filter((x) => x.kind === "bootstrap");
    expect(files).toHaveLength(2);
    expect(files[0]!.message.content).toBe("Workspace file AGENTS.md:\n# Agents\nBe brief.");
    expect(files[1]!.message.content).toMatch(
      /^Workspace file SOUL.md:\nSOUL.md art:[0-9a-f]{12}\nArtifactRef: [0-9a-f]{64} \(type=text\/markdown, /,
    );
    expect(files[1]!.ref).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("budgets fail closed", () => {
  it("throws BUDGET_EXCEEDED when the mandatory parts do not fit, and reports with failClosed: false", async () => {
    const history = conversation(2);
    const tight = { maxPromptTokens: 60, maxHotStateTokens: 50 };
    await expect(assembler({ budgets: tight }).assemble({ history, hotState: hot() })).rejects.toSatisfy((e) =>
      hasErrorCode(e, "BUDGET_EXCEEDED"),
    );
    const p = await assembler({ budgets: tight, failClosed: false }).assemble({ history, hotState: hot() });
    expect(p.violations[0]).toMatchObject({ budget: "maxPromptTokens", limit: 60 });
    expect(p.metrics.budget_ok).toBe(false);
  });

  it("treats a token count that cannot be made as a violation", async () => {
    const broken = {
      count: () => {
        throw new Error("tokenizer crashed");
      },
    };
    await expect(
      assembler({ tokenCounter: broken }).assemble({ history: conversation(1), hotState: hot() }),
    ).rejects.toSatisfy((e) => hasErrorCode(e, "BUDGET_EXCEEDED") && /token_count/.test((e as Error).message));
  });

  it("flags a hot state over its token budget and an index over its entry cap", async () => {
    const index = Array.from({ length: 25 }, (_, i) => ({
      artifact_id: `art:${String(i).padStart(12, "0")}`,
      type: "log" as const,
      label: `log ${i} ${"x".repeat(150)}`,
    }));
    const p = await assembler({ failClosed: false }).assemble({
      history: conversation(1),
      hotState: hot({ artifact_index: index }),
    });
    expect(p.violations.map((v) => v.budget).sort()).toEqual(["maxArtifactIndexEntries", "maxHotStateTokens"]);
  });

  it("shows a long assistant message by reference with an excerpt when the budget needs it", async () => {
    const store = memoryStore();
    const history = conversation(2);
    const huge = `THOUGHT: write the file\n\`\`\`bash\ncat <<'EOF' > big.py\n${bigLog(30_000)}EOF\n\`\`\``;
    history[4] = { role: "assistant", content: huge };
    const p = await assembler({ store, strategy: "window" }).assemble({ history, hotState: hot() });
    expect(p.violations).toEqual([]);
    const part = p.parts.find((x) => x.source === 4)!;
    expect(part.message.content).toMatch(
      /^\[message #4 \(assistant, \d+ chars\) stored as (art:[0-9a-f]{12,}); its head and tail are below; the rest: artifacts_get \{"ref":"\1",.*\}\]\nTHOUGHT: write the file/,
    );
    expect(await store.getText(part.ref!)).toBe(huge);
    // Over the per-message limit, it is shown by reference whatever its role (not a budget cut).
    expect(part.message.content.length).toBeLessThan(2_000);
  });

  it("puts a tool call with a huge argument behind a reference and keeps the call well-formed", async () => {
    const store = memoryStore();
    const history = conversation(2);
    const file = bigLog(40_000);
    const call = { id: "call_1", name: "write_file", arguments: JSON.stringify({ path: "big.py", content: file }) };
    history[4] = { role: "assistant", content: "Writing the file.", tool_calls: [call] };
    history[5] = { role: "tool", tool_name: "write_file", tool_call_id: "call_1", content: "ok" };
    const p = await assembler({ store, strategy: "window" }).assemble({ history, hotState: hot() });
    expect(p.violations).toEqual([]);
    const part = p.parts.find((x) => x.source === 4)!;
    expect(part.message.tool_calls).toHaveLength(1);
    expect(part.message.tool_calls![0]!.id).toBe("call_1");
    const stub = JSON.parse(part.message.tool_calls![0]!.arguments);
    expect(stub.stored_as).toMatch(/^art:[0-9a-f]{12,}$/);
    expect(stub.excerpt.length).toBeLessThanOrEqual(600);
    expect(JSON.parse(await store.getText(part.ref!))).toEqual({ content: "Writing the file.", tool_calls: [call] });
    expect(storedForm(history[4]!)).toBe(await store.getText(part.ref!));
  });

  it("keeps a small tool result inline when its reference would not be smaller (the last turns go into the checkpoint instead)", async () => {
    const store = memoryStore();
    const history = conversation(2, 300);
    const p = await assembler({
      store,
      failClosed: false,
      keepTurns: 2,
      budgets: { maxPromptTokens: 250, maxHotStateTokens: 100 },
    }).assemble({ history, hotState: hot() });
    // Every cut was tried (the last turns went into the checkpoint too); message #5 never became a reference.
    expect(p.parts.filter((x) => x.source === 5).every((x) => x.message.content === history[5]!.content)).toBe(true);
    expect(p.omitted).toContain(5);
    expect(p.checkpoint!.covers).toContain(5);
    expect(p.cuts.filter((c) => /shown by reference/.test(c.what))).toEqual([]);
    expect(p.violations).toEqual([]);
    expect(p.tokens).toBeLessThanOrEqual(250);
    expect(p.metrics.cuts!.every((c) => (c.tokens ?? 0) >= 0)).toBe(true);
  });

  it("shortens an injected tail that does not fit, and records the cut", async () => {
    const p = await assembler({ strategy: "window", budgets: { maxPromptTokens: 2_500 } }).assemble({
      history: conversation(2),
      hotState: hot(),
      tail: [{ role: "tool", name: "artifacts_get", content: bigLog(20_000) }],
    });
    expect(p.tokens).toBeLessThanOrEqual(2_500);
    expect(p.cuts.find((c) => c.what === "injected tail message shortened")?.chars).toBeGreaterThan(0);
  });

  it("stashes a tool result the externalizer left inline when it is over maxInlineArtifactChars", async () => {
    const store = memoryStore();
    const history = conversation(1, 5_000);
    const p = await assembler({ store }).assemble({ history, hotState: hot() });
    const part = p.parts.find((x) => x.source === 3)!;
    expect(JSON.parse(part.message.content)).toMatchObject({
      artifact_reference: expect.stringMatching(/^art:/),
      size_bytes: 5_000,
    });
    expect(await store.getText(part.ref!)).toBe(history[3]!.content);
  });
});

describe("metrics", () => {
  it("emits a valid prompt_metrics event on every call", async () => {
    const events: PromptMetrics[] = [];
    const a = assembler({ onMetrics: (m) => events.push(m), run: "r1" });
    const history = conversation(3);
    for (let n = 2; n <= history.length; n += 2) await a.assemble({ history: history.slice(0, n), hotState: hot() });
    expect(events).toHaveLength(4);
    for (const e of events)
      expect(PromptMetricsSchema.parse(e)).toMatchObject({
        session: "s1",
        run: "r1",
        budget_ok: true,
        budget_violations: 0,
      });
    expect(events.map((e) => e.turn)).toEqual([0, 1, 2, 3]);
    expect(events[3]!.est_tokens).toBeGreaterThan(events[0]!.est_tokens);
  });

  it("writes the event of every call to budget's metrics sinks (JSONL on disk)", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const path = join(dir, "metrics", "prompt.jsonl");
      const a = assembler({
        metricsSinks: [jsonlSink(path)],
        failClosed: false,
        budgets: { maxPromptTokens: 150, maxHotStateTokens: 100 },
      });
      const history = conversation(2);
      await a.assemble({ history: history.slice(0, 2), hotState: hot() });
      await a.assemble({ history, hotState: hot() });
      const lines = readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .map((l) => PromptMetricsSchema.parse(JSON.parse(l)));
      expect(lines.map((l) => l.turn)).toEqual([0, 2]);
      expect(lines[1]).toMatchObject({ budget_ok: false, budget_violations: 1 });
      expect(lines[1]!.warnings).toContain("1 budget violation this turn");
    } finally {
      await cleanup();
    }
  });

  it("recall items beyond maxRagChunks are cut and recorded", async () => {
    const recall = Array.from({ length: 12 }, (_, i) => ({
      ref: `art:${String(i).padStart(12, "0")}`,
      text: `item ${i}`,
    }));
    const p = await assembler().assemble({ history: conversation(1), hotState: hot(), recall });
    expect(p.parts.filter((x) => x.kind === "recall")).toHaveLength(10);
    expect(p.cuts).toContainEqual(expect.objectContaining({ what: "2 recall items", reason: "maxRagChunks" }));
  });

  it("takes resolve's recall() result as the recall section", async () => {
    const index = new RecallIndex();
    index.add({
      id: "art:aaaaaaaaaaaa",
      tool_name: "bash",
      label: "pytest run",
      summary: "3 failed: test_tokenizer_last_line",
    });
    index.add({ id: "art:bbbbbbbbbbbb", tool_name: "bash", label: "ls output", summary: "src tests docs" });
    const result = index.recall({ query: "which tokenizer test failed?", budgetTokens: 200 });
    expect(result.items.length).toBeGreaterThan(0);
    const p = await assembler().assemble({ history: conversation(1), hotState: hot(), recall: result });
    const recall = p.parts.filter((x) => x.kind === "recall");
    expect(recall.map((x) => x.ref)).toEqual(result.items.map((i) => i.id));
    expect(recall[0]!.message.content).toBe(`Recall ${result.items[0]!.id}: ${result.items[0]!.text}`);
  });
});

describe("checkpoint packs read back", () => {
  it("refuse an artifact that is not a checkpoint", async () => {
    const store = memoryStore();
    const put = await store.put("not json at all", { session: "s1" });
    await expect(readCheckpoint(store, put.id, "s1")).rejects.toSatisfy((e) => hasErrorCode(e, "CORRUPT_METADATA"));
    const other = await store.put(JSON.stringify({ schema: "something.else" }), { session: "s1" });
    await expect(readCheckpoint(store, other.id, "s1")).rejects.toSatisfy((e) => hasErrorCode(e, "CORRUPT_METADATA"));
  });
});
