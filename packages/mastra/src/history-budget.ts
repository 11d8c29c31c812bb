import { fitTurns, maxInputCharsOf, type TurnShape } from "@artifact-refs/context";
import type { InputProcessor } from "@mastra/core/processors";

/** Mastra's message (format 2), as its input processors get it. */
type MastraMessageV2 = Parameters<InputProcessor["processInput"]>[0]["messages"][number];

export interface HistoryBudget {
  /** Largest model input, in chars of the messages' JSON (Mastra's own message form). Default 48,000 (~12k tokens). */
  maxInputChars?: number;
}

type Part = { type?: string; toolInvocation?: { state?: string; toolName?: string; result?: unknown } };
type Invocation = NonNullable<Part["toolInvocation"]>;

const resultText = (r: unknown) => (typeof r === "string" ? r : JSON.stringify(r));
const isResult = (inv: Invocation | undefined): inv is Invocation => inv?.state === "result";

/** The tool results of a message: from its parts, or from the older `toolInvocations` mirror. */
function results(message: MastraMessageV2): Invocation[] {
  const fromParts = ((message.content?.parts ?? []) as Part[])
    .filter((p) => p.type === "tool-invocation")
    .map((p) => p.toolInvocation)
    .filter(isResult);
  if (fromParts.length > 0) return fromParts;
  return ((message.content?.toolInvocations ?? []) as Invocation[]).filter(isResult);
}

/** Mastra's messages (format 2), as fitTurns sees them. */
const MASTRA_MESSAGES: TurnShape<MastraMessageV2> = {
  sizeOf: (m) => JSON.stringify(m).length,
  toolOutput: (m) => {
    const found = results(m);
    if (found.length === 0) return undefined;
    return { tool: found[0]!.toolName ?? "a tool", text: found.map((inv) => resultText(inv.result)).join("\n") };
  },
  withToolOutput: (m, text) => {
    const replace = (inv: Invocation) => (isResult(inv) ? { ...inv, result: text } : inv);
    const content = { ...m.content };
    content.parts = (m.content.parts as Part[]).map((p) =>
      p.type === "tool-invocation" && p.toolInvocation ? { ...p, toolInvocation: replace(p.toolInvocation) } : p,
    ) as typeof content.parts;
    if (m.content.toolInvocations)
      content.toolInvocations = (m.content.toolInvocations as Invocation[]).map(
        replace,
      ) as typeof content.toolInvocations;
    return { ...m, content };
  },
  startsTurn: (m) => m.role === "user",
};

/**
 * A Mastra input processor that keeps the messages sent to the model inside a budget:
 * older tool outputs (never the latest) become one line that keeps their artifact refs, then
 * the oldest whole turns are left out; BUDGET_EXCEEDED (fail closed) when the latest turn alone
 * is over. Same rule (`fitTurns`) as the OpenAI Agents SDK and LangChain adapters.
 */
export function historyBudget(budget: HistoryBudget = {}): InputProcessor {
  const max = maxInputCharsOf(budget.maxInputChars, "historyBudget({ maxInputChars: 48_000 })");
  return {
    name: "artifact-refs-history-budget",
    processInput: ({ messages }) => {
      const system = messages.filter((m) => m.role === "system");
      const rest = messages.filter((m) => m.role !== "system");
      const fixed = system.reduce((n, m) => n + MASTRA_MESSAGES.sizeOf(m) + 1, 0);
      const fitted = fitTurns(rest, max, MASTRA_MESSAGES, fixed);
      return fitted === rest ? messages : [...system, ...fitted];
    },
  };
}
