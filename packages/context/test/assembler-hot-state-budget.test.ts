import { countTokens } from "@artifact-refs/budget";
import { serializeHotState } from "@artifact-refs/hot-state";
import { describe, expect, it } from "vitest";
import { PromptAssembler } from "../src/index.js";
import { memoryStore } from "./helpers.js";

const counter = { count: (text: string) => countTokens(text) };

describe("the hot-state budget", () => {
  it("measures the hot state JSON, as the dispatcher caps it, not its message framing", async () => {
    // A state whose JSON is exactly at the cap: the dispatcher accepts it, so must the assembler.
    let decisions = ["x"];
    const state = () => ({ session_id: "s1", accepted_decisions: decisions });
    while (countTokens(serializeHotState(state())) < 200) decisions = [...decisions, `decision ${decisions.length}`];
    const cap = countTokens(serializeHotState(state()));
    const assembler = new PromptAssembler({
      store: memoryStore(),
      session: "s1",
      tokenCounter: counter,
      budgets: { maxHotStateTokens: cap },
    });
    const prompt = await assembler.assemble({
      history: [
        { role: "system", content: "sys" },
        { role: "user", content: "task" },
      ],
      hotState: state(),
    });
    expect(prompt.violations).toEqual([]);
    expect(prompt.metrics.hs_tokens).toBe(cap);
    expect(prompt.metrics.hs_bytes).toBe(Buffer.byteLength(serializeHotState(state())));
    const over = new PromptAssembler({
      store: memoryStore(),
      session: "s1",
      tokenCounter: counter,
      budgets: { maxHotStateTokens: cap - 1 },
      failClosed: false,
    });
    const bad = await over.assemble({
      history: [
        { role: "system", content: "sys" },
        { role: "user", content: "task" },
      ],
      hotState: state(),
    });
    expect(bad.violations.map((v) => v.budget)).toEqual(["maxHotStateTokens"]);
  });
});
