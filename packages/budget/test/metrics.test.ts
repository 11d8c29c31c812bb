import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PromptMetricsSchema } from "@artifact-refs/schema";
import { SEED_000_MEASURES, SEED_000_PROMPT_METRICS } from "@artifact-refs/tooling/testing/seed-000";
import { afterAll, describe, expect, it } from "vitest";
import {
  type PromptMetricsInput,
  buildPromptMetrics,
  callbackSink,
  createMetricsRecorder,
  jsonlSink,
  memorySink,
  readMetricsFile,
  regressionWarnings,
  resolveBudgetConfig,
} from "@artifact-refs/budget";

const dir = mkdtempSync(join(tmpdir(), "aref-metrics-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The docs/ARCHITECTURE.md §references example turn; its artifact types come unsorted and repeated
const turn: PromptMetricsInput = {
  session: "s1",
  run: "r1",
  turn: 3,
  ...SEED_000_MEASURES,
  artifact_types: ["doc", "code", "code"],
};
const fixed = () => new Date("2025-01-02T03:04:05.000Z");

describe("prompt metrics event", () => {
  it("has every field of the §references event", () => {
    const event = buildPromptMetrics(turn, undefined, fixed);
    expect(event).toEqual({
      ...SEED_000_PROMPT_METRICS,
      ts: "2025-01-02T03:04:05.000Z",
      session: "s1",
      run: "r1",
      turn: 3,
      cuts: [],
      violations: [],
      warnings: [],
    });
    expect(PromptMetricsSchema.parse(event)).toEqual(event);
  });

  it("carries cuts with how to get them back, and violations", () => {
    const event = buildPromptMetrics({
      ...turn,
      hs_truncated: true,
      cuts: [
        {
          what: "index entry art:0123456789ab (build.log)",
          reason: "hot state over 1000 tokens",
          tokens: 40,
          recover: "artifacts_get art:0123456789ab",
        },
      ],
      violations: [{ budget: "maxPromptTokens", limit: 8000, actual: 9000, message: "over" }],
    });
    expect(event.budget_ok).toBe(false);
    expect(event.budget_violations).toBe(1);
    expect(event.cuts?.[0]?.recover).toBe("artifacts_get art:0123456789ab");
    expect(event.warnings).toContain("1 budget violation this turn");
  });

  it("refuses invalid counts", () => {
    expect(() => buildPromptMetrics({ ...turn, hs_tokens: -1 })).toThrow(/invalid prompt metrics: hs_tokens/);
  });
});

describe("regression warnings", () => {
  it("fire at the seed's thresholds and not below", () => {
    const at = { hs_tokens: 800, artifacts: 15, est_tokens: 6000, budget_violations: 0 };
    expect(regressionWarnings(at)).toEqual([]);
    const over = { hs_tokens: 801, artifacts: 16, est_tokens: 6001, budget_violations: 2 };
    const warnings = regressionWarnings(over);
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(/hot state is 801 tokens, over the warning threshold of 800/);
    expect(warnings[1]).toMatch(/16 entries, over the warning threshold of 15/);
    expect(warnings[2]).toMatch(/6001 tokens, over the warning threshold of 6000/);
    expect(warnings[3]).toBe("2 budget violations this turn");
  });

  it("follow a custom config", () => {
    const config = resolveBudgetConfig({ maxPromptTokens: 100_000 });
    expect(
      regressionWarnings({ hs_tokens: 0, artifacts: 0, est_tokens: 70_000, budget_violations: 0 }, config),
    ).toEqual([]);
    expect(
      regressionWarnings({ hs_tokens: 0, artifacts: 0, est_tokens: 75_001, budget_violations: 0 }, config),
    ).toHaveLength(1);
  });
});

describe("recorder and sinks", () => {
  it("writes every event to every sink: JSONL file, memory, callback", async () => {
    const path = join(dir, "nested", "metrics.jsonl");
    const memory = memorySink();
    const seen: number[] = [];
    const warnings: string[] = [];
    const recorder = createMetricsRecorder({
      sinks: [jsonlSink(path), memory, callbackSink((e) => void seen.push(e.turn ?? -1))],
      now: fixed,
      onWarning: (w) => warnings.push(w),
    });
    recorder.record(turn);
    recorder.record({ ...turn, turn: 4, hs_tokens: 900 });
    await recorder.close();
    expect(memory.events.map((e) => e.turn)).toEqual([3, 4]);
    expect(seen).toEqual([3, 4]);
    expect(warnings).toEqual([expect.stringMatching(/hot state is 900 tokens/)]);
    const lines = readFileSync(path, "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toEqual(memory.events[1]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readMetricsFile(path)).toEqual({ events: memory.events, invalid: [] });
    expect(recorder.recorded).toBe(2);
    expect(() => recorder.record(turn)).toThrow(/closed/);
  });

  it("a failing sink does not stop the others, and the failure is reported", () => {
    const memory = memorySink();
    const recorder = createMetricsRecorder({
      sinks: [
        callbackSink(() => {
          throw new Error("disk full");
        }, "bad"),
        memory,
      ],
    });
    expect(() => recorder.record(turn)).toThrow(/metrics sink bad failed: disk full/);
    expect(memory.events).toHaveLength(1);
    const errors: unknown[] = [];
    const tolerant = createMetricsRecorder({
      sinks: [callbackSink(() => Promise.reject(new Error("later")), "async")],
      onSinkError: (e) => errors.push(e),
    });
    tolerant.record(turn);
    return tolerant.flush().then(() => expect(errors).toHaveLength(1));
  });

  it("async sink failures surface at flush", async () => {
    const recorder = createMetricsRecorder({
      sinks: [callbackSink(async () => Promise.reject(new Error("net down")), "remote")],
    });
    recorder.record(turn);
    await expect(recorder.flush()).rejects.toThrow(/metrics sink remote failed: net down/);
  });

  it("memory sink keeps at most max events", () => {
    const memory = memorySink({ max: 2 });
    const recorder = createMetricsRecorder({ sinks: [memory] });
    for (let i = 0; i < 5; i++) recorder.record({ ...turn, turn: i });
    expect(memory.events.map((e) => e.turn)).toEqual([3, 4]);
  });

  it("reading a metrics file reports invalid lines instead of dropping them", () => {
    const path = join(dir, "mixed.jsonl");
    writeFileSync(path, `${JSON.stringify(buildPromptMetrics(turn))}\nnot json\n{"type":"prompt_metrics"}\n`);
    const report = readMetricsFile(path);
    expect(report.events).toHaveLength(1);
    expect(report.invalid.map((i) => i.line)).toEqual([2, 3]);
    expect(() => readMetricsFile(join(dir, "missing.jsonl"))).toThrow(/cannot read metrics file/);
  });
});
