import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_BUDGET, countTokens } from "@artifact-refs/budget";
import { createDispatcher } from "@artifact-refs/hot-state";
import { PromptMetricsSchema, type PromptMetrics } from "@artifact-refs/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ArtifactsGetTool,
  Externalizer,
  PromptAssembler,
  TranscriptWriter,
  historyFromTranscript,
  readTranscript,
  rehydrateTranscript,
  type ArtifactsGetAnswer,
} from "../src/internal.js";
import { bigLog, memoryStore, tempDir } from "./helpers.js";

const SESSION = "e2e-50";
const TURNS = 50;
const BUDGETS = {
  maxPromptTokens: 8_000,
  maxHotStateTokens: 1_000,
  maxArtifactIndexEntries: 20,
  maxInlineArtifactChars: 2_000,
};

/** Deterministic tool outputs of every kind: logs, JSON, HTML, small answers, many lines. */
function toolOutput(turn: number): { tool: string; result: unknown; args: Record<string, unknown> } {
  switch (turn % 5) {
    case 0:
      return { tool: "run_tests", args: { path: "tests/" }, result: bigLog(20_000 + turn * 900, turn) };
    case 1:
      return {
        tool: "http_get",
        args: { url: `https://api.example.test/orders?page=${turn}` },
        result: {
          page: turn,
          orders: Array.from({ length: 60 + turn }, (_, i) => ({
            id: `o-${turn}-${i}`,
            total: (i * 37) % 1000,
            status: i % 7 ? "paid" : "refunded",
          })),
        },
      };
    case 2:
      return {
        tool: "read_file",
        args: { path: `src/module_${turn}.py` },
        result: Array.from({ length: 400 }, (_, i) => `def f_${turn}_${i}(x):\n    return x + ${i}`).join("\n"),
      };
    case 3:
      return {
        tool: "shell",
        args: { command: "git status --short" },
        result: ` M src/module_${turn}.py\n?? notes.txt\n`,
      };
    default:
      return {
        tool: "browse",
        args: { url: `https://docs.example.test/p/${turn}` },
        result: `<!doctype html><html><head><title>Page ${turn}</title></head><body>${"<p>paragraph text of the documentation page</p>".repeat(120 + turn)}</body></html>`,
      };
  }
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(async () => cleanup());

describe("end to end: a scripted 50-turn session with large tool outputs", () => {
  it("stays under every budget every turn, and every output rehydrates byte-exact", { timeout: 240_000 }, async () => {
    const store = memoryStore();
    const path = join(dir, `${SESSION}.jsonl`);
    const externalizer = new Externalizer({ store, maxInlineArtifactChars: BUDGETS.maxInlineArtifactChars });
    const writer = new TranscriptWriter({ path, session: SESSION, externalizer });
    const get = new ArtifactsGetTool({ store, session: SESSION, maxChars: 1_500 });
    // The dispatcher and the assembler measure the same thing (the hot state JSON), so one budget serves both.
    const { writer: hot } = createDispatcher({
      session_id: SESSION,
      state: { objective: "triage the failing order export" },
      config: { ...DEFAULT_BUDGET, maxHotStateTokens: BUDGETS.maxHotStateTokens },
    });
    const metrics: PromptMetrics[] = [];
    const assembler = new PromptAssembler({
      store,
      session: SESSION,
      tokenCounter: { count: (t) => countTokens(t) },
      strategy: "append",
      budgets: BUDGETS,
      onMetrics: (m) => metrics.push(m),
    });

    await writer.appendMessage(
      "system",
      "You are a careful agent. Large tool outputs are stored as artifacts; read them with artifacts_get.",
    );
    await writer.appendMessage("user", "The nightly order export fails. Find out why and fix it.");
    const originals: { turn: number; tool: string; value: unknown }[] = [];
    let stashed = 0;

    for (let turn = 1; turn <= TURNS; turn++) {
      const { tool, result, args } = toolOutput(turn);
      const callId = `call_${turn}`;
      await writer.appendMessage("assistant", `Turn ${turn}: calling ${tool}.`, {
        tool_calls: [{ id: callId, name: tool, arguments: JSON.stringify(args) }],
      });
      const r = await writer.appendToolResult({ tool, result, args, callId, deadline: Date.now() + 60_000 });
      originals.push({ turn, tool, value: result });
      expect(r.action).not.toBe("fallback");
      expect(r.content.length).toBeLessThanOrEqual(BUDGETS.maxInlineArtifactChars);
      if (r.action === "stashed") {
        stashed++;
        hot.addArtifact({
          artifact_id: r.artifactRef!.short_ref,
          type: "tool_output",
          label: `${tool} turn ${turn}`,
          summary: r.artifactRef!.summary?.slice(0, 200),
        });
        // every third stash, the model reads part of it in the same turn
        if (turn % 3 === 0) {
          const fetchId = `fetch_${turn}`;
          const selector =
            r.payload === "json"
              ? { mode: "jsonpath", expr: "$.orders[0:3]" }
              : { mode: "grep", pattern: "ERROR|def f_|<title>", context: 0, maxMatches: 5 };
          const fetchArgs = { ref: r.artifactRef!.short_ref, selector };
          await writer.appendMessage("assistant", "", {
            tool_calls: [{ id: fetchId, name: "artifacts_get", arguments: JSON.stringify(fetchArgs) }],
          });
          // What the model reads: the selected text, then plain-text lines on what it was.
          const reply = await get.handle(fetchArgs);
          const answer = (await get.call(fetchArgs)) as ArtifactsGetAnswer;
          expect(answer.text?.length, JSON.stringify(answer).slice(0, 300)).toBeGreaterThan(0);
          expect(answer.text.length).toBeLessThanOrEqual(1_500);
          expect(reply.startsWith(answer.text)).toBe(true);
          const fetched = await writer.appendToolResult({
            tool: "artifacts_get",
            result: reply,
            callId: fetchId,
          });
          expect(fetched.action).toBe("inline"); // never externalized
          hot.reference(r.artifactRef!.short_ref);
        }
      }
      hot.update({ last_successful_step: `turn ${turn}: ${tool}` });
      const build = hot.build();
      expect(build.tokens).toBeLessThanOrEqual(BUDGETS.maxHotStateTokens);
      const { entries } = await readTranscript(path);
      const prompt = await assembler.assemble({ history: historyFromTranscript(entries), hotState: build.state });
      expect(prompt.violations).toEqual([]);
      expect(prompt.tokens).toBeLessThanOrEqual(BUDGETS.maxPromptTokens);
      // Large outputs go by reference unless the prompt carries the whole transcript (it fits the budget).
      if (prompt.verbatim) expect(prompt.omitted).toEqual([]);
      else
        for (const m of prompt.messages)
          if (m.role === "tool") expect(m.content.length).toBeLessThanOrEqual(BUDGETS.maxInlineArtifactChars);
    }

    expect(metrics).toHaveLength(TURNS);
    for (const m of metrics) {
      PromptMetricsSchema.parse(m);
      expect(m.budget_ok).toBe(true);
      expect(m.budget_violations).toBe(0);
      expect(m.est_tokens).toBeLessThanOrEqual(BUDGETS.maxPromptTokens);
      expect(m.hs_tokens).toBeLessThanOrEqual(BUDGETS.maxHotStateTokens);
      expect(m.artifacts).toBeLessThanOrEqual(BUDGETS.maxArtifactIndexEntries);
    }
    expect(stashed).toBeGreaterThanOrEqual(35);

    // The transcript holds references, not payloads: far smaller than the outputs.
    const file = await readFile(path, "utf8");
    const outputBytes = originals.reduce(
      (n, o) => n + Buffer.byteLength(typeof o.value === "string" ? o.value : JSON.stringify(o.value, null, 2)),
      0,
    );
    expect(file.length).toBeLessThan(outputBytes / 5);

    // Every output rehydrates byte-exact (and JSON values to the same value).
    const transcript = await readTranscript(path);
    const back = await rehydrateTranscript(transcript, { store });
    expect(back.errors).toEqual([]);
    expect(back.rehydrated).toBe(stashed);
    const toolEntries = back.entries.filter((e) => e.role === "tool" && e.tool_name !== "artifacts_get");
    expect(toolEntries).toHaveLength(TURNS);
    for (const [i, e] of toolEntries.entries()) {
      const { value } = originals[i]!;
      expect(e.content).toBe(typeof value === "string" ? value : JSON.stringify(value, null, 2));
    }
  });
});
