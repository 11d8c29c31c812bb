import {
  partsText,
  partsToHistory,
  toolCallInput,
  type HistoryMessage,
  type MessagePart,
  type ModelMessage as PromptMessage,
} from "@artifact-refs/context";

type Block = {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
};

/** A Messages API message. */
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | Block[];
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return partsText(content as Block[]);
  return JSON.stringify(content ?? "");
}

/** `system` + Messages API messages → the assembler's history (tool_result blocks become tool messages). */
export function toHistory(system: string | undefined, messages: readonly AnthropicMessage[]): HistoryMessage[] {
  const out: HistoryMessage[] = system ? [{ role: "system", content: system }] : [];
  const names = new Map<string, string>();
  for (const m of messages) {
    if (typeof m.content === "string") {
      out.push({ role: m.role, content: m.content });
      continue;
    }
    const parts = m.content.map((b): MessagePart => {
      if (b.type === "tool_result")
        return {
          type: "tool-result",
          id: b.tool_use_id ?? null,
          name: names.get(b.tool_use_id ?? ""),
          content: resultText(b.content),
        };
      if (b.type === "tool_use") {
        names.set(b.id ?? "", b.name ?? "tool");
        return { type: "tool-call", id: b.id ?? null, name: b.name ?? "tool", input: b.input };
      }
      if (b.type === "text" && typeof b.text === "string") return { type: "text", text: b.text };
      return { type: "other", value: b };
    });
    out.push(...partsToHistory(m.role, parts, false));
  }
  return out;
}

/** The `tool_use_id`s of the tool_result blocks flagged `is_error` (the assembler keeps no flag: fromPrompt puts it back). */
export function errorResultIds(messages: readonly AnthropicMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages)
    if (Array.isArray(m.content))
      for (const b of m.content) if (b.type === "tool_result" && b.is_error === true) ids.add(b.tool_use_id ?? "");
  return ids;
}

/**
 * The assembled prompt → `{system, messages}`: system parts (system prompt, hot state,
 * checkpoint) join the system text in order; tool results go into the next user message
 * (`is_error` on those whose id is in `errorIds`); consecutive messages of one role are merged
 * so roles alternate, starting with the user.
 */
export function fromPrompt(
  prompt: readonly PromptMessage[],
  errorIds: ReadonlySet<string> = new Set(),
): { system: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const messages: Array<{ role: "user" | "assistant"; content: Block[] }> = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = messages.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const m of prompt) {
    if (m.role === "system") system.push(m.content);
    else if (m.role === "tool") {
      const id = m.tool_call_id ?? "";
      push("user", [
        { type: "tool_result", tool_use_id: id, content: m.content, ...(errorIds.has(id) ? { is_error: true } : {}) },
      ]);
    } else if (m.role === "user") push("user", [{ type: "text", text: m.content }]);
    else {
      const blocks: Block[] = m.content.length > 0 ? [{ type: "text", text: m.content }] : [];
      for (const c of m.tool_calls ?? [])
        blocks.push({ type: "tool_use", id: c.id ?? "", name: c.name, input: toolCallInput(c.arguments) });
      push("assistant", blocks);
    }
  }
  if (messages[0]?.role === "assistant")
    messages.unshift({ role: "user", content: [{ type: "text", text: "(continued)" }] });
  return { system: system.join("\n\n"), messages };
}
