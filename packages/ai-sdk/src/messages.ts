import {
  partsToHistory,
  toolCallInput,
  type HistoryMessage,
  type MessagePart,
  type ModelMessage as PromptMessage,
} from "@artifact-refs/context";
import type { ModelMessage } from "ai";

type Part = { type: string; text?: string; toolCallId?: string; toolName?: string; input?: unknown; output?: unknown };

function outputString(output: unknown): string {
  if (output !== null && typeof output === "object") {
    const o = output as { type?: string; value?: unknown };
    if ((o.type === "text" || o.type === "error-text") && typeof o.value === "string") return o.value;
    if ("value" in o) return JSON.stringify(o.value);
  }
  return JSON.stringify(output ?? null);
}

/**
 * AI SDK messages → the assembler's history. Text parts become the content; tool calls become
 * `tool_calls`; each tool result becomes one tool message; any other part (image, file,
 * reasoning) is kept as JSON text, so it is counted and, when large, stored like any content.
 */
export function toHistory(messages: readonly ModelMessage[]): HistoryMessage[] {
  return messages.flatMap((m): HistoryMessage[] => {
    if (typeof m.content === "string") return [{ role: m.role, content: m.content }];
    const parts = m.content as Part[];
    if (m.role === "tool")
      return partsToHistory(
        "assistant",
        parts.map((p) => ({
          type: "tool-result",
          id: p.toolCallId ?? null,
          name: p.toolName,
          content: outputString(p.output),
        })),
        false,
      );
    return partsToHistory(
      m.role,
      parts.map((p): MessagePart => {
        if (p.type === "text" && typeof p.text === "string") return { type: "text", text: p.text };
        if (p.type === "tool-call")
          return { type: "tool-call", id: p.toolCallId ?? null, name: p.toolName ?? "tool", input: p.input };
        return { type: "other", value: p };
      }),
      true,
    );
  });
}

/** The `toolCallId`s of tool results whose output is an error (`error-text`, `error-json`); the assembler keeps no flag. */
export function errorResultIds(messages: ReadonlyArray<{ role: string; content: unknown }>): Set<string> {
  const ids = new Set<string>();
  for (const m of messages)
    if (m.role === "tool" && Array.isArray(m.content))
      for (const p of m.content as Part[]) {
        const type = (p.output as { type?: unknown } | undefined)?.type;
        if (p.type === "tool-result" && (type === "error-text" || type === "error-json")) ids.add(p.toolCallId ?? "");
      }
  return ids;
}

/**
 * The assembled prompt's messages → AI SDK messages (consecutive tool results stay separate
 * messages); a result whose id is in `errorIds` is an `error-text` output, any other `text`.
 */
export function fromPrompt(
  messages: readonly PromptMessage[],
  errorIds: ReadonlySet<string> = new Set(),
): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    if (m.role === "system") return { role: "system", content: m.content };
    if (m.role === "user") return { role: "user", content: m.content };
    if (m.role === "tool") {
      return {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: m.tool_call_id ?? "",
            toolName: m.name ?? "tool",
            output: { type: errorIds.has(m.tool_call_id ?? "") ? "error-text" : "text", value: m.content },
          },
        ],
      };
    }
    if (!m.tool_calls || m.tool_calls.length === 0) return { role: "assistant", content: m.content };
    return {
      role: "assistant",
      content: [
        ...(m.content.length > 0 ? [{ type: "text" as const, text: m.content }] : []),
        ...m.tool_calls.map((c) => ({
          type: "tool-call" as const,
          toolCallId: c.id ?? "",
          toolName: c.name,
          input: toolCallInput(c.arguments),
        })),
      ],
    };
  });
}

/**
 * The same for a language model middleware: the provider-level prompt (LanguageModelV3Prompt)
 * wants user and assistant content as parts.
 */
export function fromPromptParts(messages: readonly PromptMessage[], errorIds?: ReadonlySet<string>): unknown[] {
  return fromPrompt(messages, errorIds).map((m) =>
    (m.role === "user" || m.role === "assistant") && typeof m.content === "string"
      ? { ...m, content: [{ type: "text", text: m.content }] }
      : m,
  );
}
