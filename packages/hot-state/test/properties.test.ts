import { resolveBudgetConfig } from "@artifact-refs/budget";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildHotState, createDispatcher, type IndexCandidate, serializeHotState } from "@artifact-refs/hot-state";
import { hasErrorCode, HotStateSchema } from "@artifact-refs/schema";

const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
const text = (max: number) => fc.string({ unit: "grapheme", maxLength: max });
const candidate: fc.Arbitrary<IndexCandidate> = fc.record(
  {
    artifact_id: hex64,
    type: fc.constantFrom("repo", "doc", "code", "log", "data", "plan", "result", "tool_output", "checkpoint"),
    label: text(300),
    version: text(64),
    summary: text(500),
    pinned: fc.boolean(),
    last_referenced: fc.nat(1000),
    created: fc.nat(1000),
  },
  { requiredKeys: ["artifact_id", "type"] },
);
const stateArb = fc.record(
  {
    session_id: fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/),
    session_key: text(40),
    run_id: text(40),
    objective: text(400),
    current_plan_id: fc.option(text(30), { nil: null }),
    accepted_decisions: fc.array(text(200), { maxLength: 12 }),
    open_questions: fc.array(text(200), { maxLength: 12 }),
    constraints: fc.array(text(200), { maxLength: 12 }),
    last_successful_step: text(200),
    risk_level: fc.constantFrom("low", "medium", "high"),
  },
  { requiredKeys: ["session_id"] },
);
const caps = fc.record({
  maxHotStateTokens: fc.integer({ min: 150, max: 1500 }),
  maxArtifactIndexEntries: fc.integer({ min: 0, max: 25 }),
});

describe("hot state properties (random inputs)", () => {
  it("never exceeds its caps, always validates, and says what it cut", () => {
    fc.assert(
      fc.property(stateArb, fc.array(candidate, { maxLength: 60 }), caps, (state, cands, cap) => {
        const config = resolveBudgetConfig(cap);
        let built;
        try {
          built = buildHotState({ state, candidates: cands }, { config, impl: "gpt-tokenizer" });
        } catch (error) {
          // only when even the minimal state cannot fit
          expect(hasErrorCode(error, "BUDGET_EXCEEDED")).toBe(true);
          return;
        }
        expect(built.tokens).toBeLessThanOrEqual(cap.maxHotStateTokens);
        expect(built.state.artifact_index?.length ?? 0).toBeLessThanOrEqual(cap.maxArtifactIndexEntries);
        expect(HotStateSchema.safeParse(JSON.parse(built.json)).success).toBe(true);
        expect(built.truncated).toBe(built.cuts.length > 0);
        const distinct = new Set(cands.map((c) => c.artifact_id)).size;
        if ((built.state.artifact_index?.length ?? 0) < Math.min(distinct, cap.maxArtifactIndexEntries))
          expect(built.truncated).toBe(true);
        for (const e of built.state.artifact_index ?? []) expect(e.artifact_id).toMatch(/^art:[0-9a-f]{12,64}$/);
      }),
      { numRuns: 150 },
    );
  });

  it("serialization is deterministic: same state, same bytes, whatever the key order or the copy", () => {
    fc.assert(
      fc.property(stateArb, fc.array(candidate, { maxLength: 30 }), (state, cands) => {
        const a = buildHotState({ state, candidates: cands }, { impl: "gpt-tokenizer" });
        const reversed = Object.fromEntries(Object.entries(state).reverse()) as typeof state;
        const copies = cands.map((c) => Object.fromEntries(Object.entries(c).reverse()) as IndexCandidate);
        const b = buildHotState({ state: structuredClone(reversed), candidates: copies }, { impl: "gpt-tokenizer" });
        expect(b.json).toBe(a.json);
        expect(serializeHotState(JSON.parse(a.json))).toBe(a.json);
        expect(serializeHotState(a.state)).toBe(a.json);
      }),
      { numRuns: 150 },
    );
  });

  it("appending a candidate that fits keeps the serialized prefix byte-identical", () => {
    fc.assert(
      fc.property(fc.array(candidate, { minLength: 1, maxLength: 10 }), candidate, (cands, extra) => {
        const plain = (c: IndexCandidate): IndexCandidate => ({ artifact_id: c.artifact_id, type: c.type, created: 0 });
        const base = cands.map(plain);
        fc.pre(!base.some((c) => c.artifact_id.slice(0, 12) === extra.artifact_id.slice(0, 12)));
        const state = { session_id: "s" };
        const before = buildHotState({ state, candidates: base }, { impl: "gpt-tokenizer" });
        const after = buildHotState(
          { state, candidates: [...base, { ...plain(extra), created: 1 }] },
          { impl: "gpt-tokenizer" },
        );
        fc.pre(!before.truncated && !after.truncated);
        expect(after.json.startsWith(before.json.slice(0, -2))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

describe("dispatcher (random operations)", () => {
  const op = fc.oneof(
    fc.record({
      kind: fc.constant("add" as const),
      n: fc.nat(40),
      pinned: fc.option(fc.boolean(), { nil: undefined }),
    }),
    fc.record({ kind: fc.constant("ref" as const), n: fc.nat(40) }),
    fc.record({ kind: fc.constant("pin" as const), n: fc.nat(40), on: fc.boolean() }),
    fc.record({ kind: fc.constant("rm" as const), n: fc.nat(40) }),
  );
  // odd ids share their first 12 hex digits, so short refs must grow past 12 for them
  const id = (n: number) =>
    n % 2 === 1
      ? `${"c".repeat(12)}${n.toString(16).padStart(4, "0")}${"0".repeat(48)}`
      : `${n.toString(16).padStart(4, "0")}${"ab".repeat(30)}`;

  it("its O(k) selection equals the pure build over the same candidates, within the caps", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), fc.integer({ min: 0, max: 12 }), (ops, maxEntries) => {
        const config = resolveBudgetConfig({ maxArtifactIndexEntries: maxEntries });
        const { writer, view } = createDispatcher({ session_id: "p", config, impl: "gpt-tokenizer" });
        for (const o of ops) {
          if (o.kind === "add")
            writer.addArtifact(
              { artifact_id: id(o.n), type: "log", label: `l${o.n}` },
              o.pinned === undefined ? {} : { pinned: o.pinned },
            );
          else if (o.kind === "ref") writer.reference(id(o.n));
          else if (o.kind === "pin") (o.on ? writer.pin : writer.unpin)(id(o.n));
          else writer.removeArtifact(id(o.n));
        }
        const built = writer.build();
        const pure = buildHotState(
          { state: view.fields(), candidates: view.artifacts() },
          { config, impl: "gpt-tokenizer" },
        );
        expect(built.json).toBe(pure.json);
        expect(built.state.artifact_index?.length ?? 0).toBeLessThanOrEqual(maxEntries);
        // snapshot round trip keeps the same selection
        const restored = createDispatcher({
          session_id: "p",
          config,
          impl: "gpt-tokenizer",
          snapshot: JSON.parse(JSON.stringify(writer.snapshot())),
        });
        expect(restored.writer.build().json).toBe(built.json);
      }),
      { numRuns: 200 },
    );
  });
});
