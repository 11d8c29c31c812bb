import { countTokens } from "@artifact-refs/budget";
import { describe, expect, it } from "vitest";
import { PromptAssembler, type HistoryMessage } from "../src/index.js";
import { bigLog, memoryStore } from "./helpers.js";

const counter = { count: (text: string) => countTokens(text) };
const REQUEST = "Now compare the two READMEs you loaded.";

/** A first task answered, then a later request that takes several tool calls. */
function history(callsForRequest: number): HistoryMessage[] {
  const h: HistoryMessage[] = [
    { role: "system", content: "You are a careful coding agent." },
    { role: "user", content: "Load README.md." },
    {
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c0", name: "read_file", arguments: '{"path":"README.md"}' }],
    },
    { role: "tool", tool_name: "read_file", tool_call_id: "c0", content: bigLog(3_000, 0) },
    { role: "assistant", content: "Loaded it." },
    { role: "user", content: REQUEST },
  ];
  for (let i = 1; i <= callsForRequest; i++) {
    h.push({
      role: "assistant",
      content: "",
      tool_calls: [{ id: `c${i}`, name: "artifacts_get", arguments: `{"ref":"art:00000000000${i}"}` }],
    });
    h.push({ role: "tool", tool_name: "artifacts_get", tool_call_id: `c${i}`, content: `fetched slice ${i}` });
  }
  return h;
}

describe("the user's current request", () => {
  for (const strategy of ["window", "append"] as const) {
    it(`stays in every ${strategy} prompt while the model works on it with several tool calls`, async () => {
      const assembler = new PromptAssembler({
        store: memoryStore(),
        session: "s1",
        tokenCounter: counter,
        strategy,
        budgets: { maxPromptTokens: 2_000 },
      });
      for (let calls = 0; calls <= 4; calls++) {
        const prompt = await assembler.assemble({ history: history(calls), hotState: { session_id: "s1" } });
        const users = prompt.messages.filter((m) => m.role === "user").map((m) => m.content);
        expect(users, `after ${calls} tool calls`).toContain(REQUEST);
        // The request comes before the turns that serve it.
        const at = prompt.messages.findIndex((m) => m.content === REQUEST);
        const lastFetch = prompt.messages.findLastIndex((m) => m.content.startsWith("fetched slice"));
        if (lastFetch >= 0) expect(at).toBeLessThan(lastFetch);
        expect(prompt.tokens).toBeLessThanOrEqual(2_000);
      }
    });
  }
});
