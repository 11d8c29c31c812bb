import { resolveBudgetConfig } from "@artifact-refs/budget";
import { hasErrorCode, HotStateSchema } from "@artifact-refs/schema";
import { errorOf } from "@artifact-refs/tooling/testing/errors";
import { throwingTokenizer } from "@artifact-refs/tooling/testing/tokenizers";
import { describe, expect, it } from "vitest";
import { buildHotState, createDispatcher, serializeHotState } from "@artifact-refs/hot-state";
import { candidates, idOf } from "./helpers.js";

const state = { session_id: "s1", objective: "fix the flaky test" };

describe("buildHotState", () => {
  it("a small state is kept whole, validated and serialized canonically", () => {
    const built = buildHotState({ state: { ...state, risk_level: "low" }, candidates: candidates(3) });
    expect(built.truncated).toBe(false);
    expect(built.cuts).toEqual([]);
    expect(built.steps).toEqual([]);
    expect(built.state.artifact_index?.map((e) => e.label)).toEqual(["out-0.log", "out-1.log", "out-2.log"]);
    expect(built.state.artifact_index?.[0]?.artifact_id).toBe(`art:${idOf(0).slice(0, 12)}`);
    expect(built.json).toBe(serializeHotState(built.state));
    expect(
      built.json.startsWith(
        '{"session_id":"s1","objective":"fix the flaky test","artifact_index":[{"artifact_id":"art:',
      ),
    ).toBe(true);
    expect(built.bytes).toBe(Buffer.byteLength(built.json));
    expect(built.metrics).toEqual({
      hs_tokens: built.tokens,
      hs_bytes: built.bytes,
      hs_truncated: false,
      artifacts: 3,
      artifact_types: ["log"],
    });
    expect(HotStateSchema.parse(JSON.parse(built.json))).toEqual(built.state);
    expect(Object.isFrozen(built.state)).toBe(true);
    expect(Object.isFrozen(built.state.artifact_index)).toBe(true);
  });

  it("keeps at most 20 entries: pinned, then recently referenced, then newest; shown in stable order", () => {
    const cands = candidates(30, (i) => ({
      ...(i === 0 ? { pinned: true } : {}),
      ...(i === 1 ? { last_referenced: 100 } : {}),
    }));
    const built = buildHotState({ state, candidates: cands });
    const labels = built.state.artifact_index!.map((e) => e.label);
    expect(labels).toHaveLength(20);
    // 0 pinned, 1 recently referenced, then the 18 newest (12..29), in their original order
    expect(labels).toEqual(["out-0.log", "out-1.log", ...Array.from({ length: 18 }, (_, k) => `out-${k + 12}.log`)]);
    expect(built.truncated).toBe(true);
    expect(built.steps).toEqual(["index_cap"]);
    expect(built.cuts).toHaveLength(1);
    expect(built.cuts[0]!.what).toBe("10 index candidates beyond the cap");
    expect(built.cuts[0]!.recover).toMatch(/aref list --session/);
  });

  it("evicts unpinned entries by priority until the tokens fit, each one a cut with its ref", () => {
    const cands = candidates(20, (i) => ({
      summary: `summary of output ${i}: ${"words and more words ".repeat(12)}`,
      ...(i === 3 ? { pinned: true } : {}),
    }));
    const built = buildHotState({ state, candidates: cands });
    expect(built.tokens).toBeLessThanOrEqual(1000);
    expect(built.truncated).toBe(true);
    expect(built.steps).toEqual(["evict_unpinned"]);
    const kept = built.state.artifact_index!.map((e) => e.label);
    expect(kept).toContain("out-3.log");
    // the oldest unpinned go first: what is kept is the pinned one and a run of the newest
    const keptNumbers = kept.filter((l) => l !== "out-3.log").map((l) => Number(l!.match(/\d+/)![0]));
    expect(keptNumbers).toEqual(Array.from({ length: keptNumbers.length }, (_, k) => 20 - keptNumbers.length + k));
    expect(built.cuts).toHaveLength(20 - kept.length);
    for (const cut of built.cuts) {
      expect(cut.what).toMatch(/^index entry art:[0-9a-f]{12} \(out-\d+\.log\)$/);
      expect(cut.recover).toMatch(/^artifacts_get art:[0-9a-f]{12}$/);
      expect(cut.tokens).toBeGreaterThan(0);
    }
    expect(built.evicted).toHaveLength(built.cuts.length);
    // fewest evictions: putting back the next entry would not fit
    const oneMore = buildHotState(
      { state, candidates: cands },
      { config: resolveBudgetConfig({ maxHotStateTokens: built.tokens - 1 }) },
    );
    expect(oneMore.state.artifact_index!.length).toBeLessThan(kept.length);
  });

  it("then shortens lists, oldest items of the longest list first", () => {
    const long = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p} ${i}: ${"detail ".repeat(20)}`);
    const built = buildHotState(
      {
        state: { ...state, open_questions: long("question", 10), accepted_decisions: long("decision", 4) },
        candidates: candidates(2),
      },
      { config: resolveBudgetConfig({ maxHotStateTokens: 300 }) },
    );
    expect(built.steps).toEqual(["evict_unpinned", "shorten_lists"]);
    expect(built.state.artifact_index).toBeUndefined();
    expect(built.tokens).toBeLessThanOrEqual(300);
    const questions = built.state.open_questions ?? [];
    expect(questions.length).toBeLessThan(10);
    if (questions.length > 0) expect(questions.at(-1)).toMatch(/^question 9:/);
    const listCuts = built.cuts.filter((c) => /^(open_questions|accepted_decisions)\[/.test(c.what));
    expect(listCuts[0]!.what).toMatch(/^open_questions\[0\] "question 0:/);
    expect(listCuts.every((c) => typeof c.chars === "number")).toBe(true);
  });

  it("then evicts pinned entries, then falls back to the minimal state", () => {
    const built = buildHotState(
      {
        state: {
          ...state,
          current_plan_id: "plan-7",
          last_successful_step: "ran the tests ".repeat(30),
          constraints: ["no network"],
        },
        candidates: candidates(3, () => ({ pinned: true })),
      },
      { config: resolveBudgetConfig({ maxHotStateTokens: 40 }) },
    );
    expect(built.steps).toEqual(["evict_unpinned", "shorten_lists", "evict_pinned", "minimal"]);
    expect(Object.keys(built.state)).toEqual(["session_id", "objective"]);
    expect(built.cuts.at(-1)!.what).toBe("fields current_plan_id, last_successful_step");
    expect(built.cuts.filter((c) => c.what.startsWith("index entry"))).toHaveLength(3);
    expect(built.tokens).toBeLessThanOrEqual(40);
  });

  it("a state that cannot fit even in minimal form is BUDGET_EXCEEDED", () => {
    const error = errorOf(() =>
      buildHotState(
        { state: { session_id: "s1", objective: "a very long objective ".repeat(100) } },
        { config: resolveBudgetConfig({ maxHotStateTokens: 50 }) },
      ),
    );
    expect(hasErrorCode(error, "BUDGET_EXCEEDED")).toBe(true);
    expect(error.message).toMatch(/cannot fit in 50 tokens .* even in minimal form/);
    expect((error as { hint?: string }).hint).toMatch(/shorten the objective/);
  });

  it("an invalid hot state names the zod path of the problem", () => {
    const error = errorOf(() => buildHotState({ state: { session_id: "s1", risk_level: "extreme" } as never }));
    expect(hasErrorCode(error, "INVALID_INPUT")).toBe(true);
    expect(error.message).toMatch(/^invalid hot state: risk_level:/);
    expect(errorOf(() => buildHotState({ state: { session_id: "" } })).message).toMatch(/session_id/);
    expect(errorOf(() => buildHotState({ state: { session_id: "s", extra: 1 } as never })).message).toMatch(
      /Unrecognized key/,
    );
    expect(
      errorOf(() => buildHotState({ state, candidates: [{ artifact_id: "nothex", type: "log" }] })).message,
    ).toMatch(/invalid hot state: artifact index candidate 0 \("nothex"\): artifact_id/);
    expect(
      errorOf(() => buildHotState({ state, candidates: [{ artifact_id: idOf(1), type: "video" as never }] })).message,
    ).toMatch(/type/);
  });

  it("fails closed when the hot state cannot be counted", () => {
    const broken = throwingTokenizer("no tokenizer");
    const error = errorOf(() => buildHotState({ state }, { tokenizer: broken }));
    expect(hasErrorCode(error, "TOKENIZER_FAILED")).toBe(true);
    expect(error.message).toMatch(/fail closed/);
  });

  it("duplicate candidates count once and the next candidate takes the freed slot", () => {
    const cands = candidates(25);
    cands.push({ ...cands[24]!, label: "again" });
    const built = buildHotState({ state, candidates: cands });
    const ids = built.state.artifact_index!.map((e) => e.artifact_id);
    expect(new Set(ids).size).toBe(20);
  });

  it("lengthens a short ref until it is unique among the candidates", () => {
    const a = `abcdef012345${"0".repeat(52)}`;
    const b = `abcdef0123456${"1".repeat(51)}`;
    const built = buildHotState({
      state,
      candidates: [
        { artifact_id: a, type: "doc" },
        { artifact_id: b, type: "doc" },
      ],
    });
    expect(built.state.artifact_index!.map((e) => e.artifact_id)).toEqual([
      `art:${a.slice(0, 13)}`,
      `art:${b.slice(0, 13)}`,
    ]);
    // a colliding candidate outside the index still lengthens the ref
    const many = [
      ...candidates(20, () => ({ pinned: true })),
      { artifact_id: `${idOf(0).slice(0, 20)}${"f".repeat(44)}`, type: "log" as const },
    ];
    const ref0 = buildHotState({ state, candidates: many }).state.artifact_index![0]!.artifact_id;
    expect(ref0.length).toBeGreaterThan(16);
    expect(idOf(0).startsWith(ref0.slice(4))).toBe(true);
  });

  it("an artifact_index in the state is kept as candidates before the others", () => {
    const built = buildHotState({
      state: { ...state, artifact_index: [{ artifact_id: idOf("x"), type: "plan", label: "plan" }] },
      candidates: candidates(2),
    });
    expect(built.state.artifact_index!.map((e) => e.label)).toEqual(["plan", "out-0.log", "out-1.log"]);
  });

  it("respects a zero index cap", () => {
    const built = buildHotState(
      { state, candidates: candidates(3) },
      { config: resolveBudgetConfig({ maxArtifactIndexEntries: 0 }) },
    );
    expect(built.state.artifact_index).toBeUndefined();
    expect(built.cuts[0]!.what).toBe("3 index candidates beyond the cap");
  });
});

describe("bad input is INVALID_INPUT, never a TypeError", () => {
  it("buildHotState, createDispatcher and serializeHotState refuse garbage with a message", () => {
    const cases: Array<[() => unknown, RegExp]> = [
      [() => buildHotState(null as never), /needs \{ state, candidates\? \}/],
      [() => buildHotState(42 as never), /needs \{ state, candidates\? \}/],
      [() => buildHotState({ state, candidates: [null] } as never), /candidate #1/],
      [() => buildHotState({ state, candidates: [...candidates(2), "x"] } as never), /candidate #3/],
      [() => buildHotState({ state }, null as never), /options must be an object/],
      [() => createDispatcher(null as never), /needs options with a session_id/],
      [() => serializeHotState("x" as never), /needs a hot state object/],
    ];
    for (const [fn, message] of cases) {
      const error = errorOf(fn);
      expect(error.code, String(fn)).toBe("INVALID_INPUT");
      expect(error.message).toMatch(message);
    }
  });
});
