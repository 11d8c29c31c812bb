import { partsText, type HistoryMessage, type ModelMessage as PromptMessage } from "@artifact-refs/context";

/** A Chat Completions message (the fields the assembler reads and writes). */
export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool";
  content: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; type?: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  name?: string;
}

function text(content: ChatMessage["content"]): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  // Structured parts: text as text, anything else (images, audio) as JSON, counted like any content.
  return partsText(content);
}

/** Chat Completions messages → the assembler's history (developer counts as system). */
export function toHistory(messages: readonly ChatMessage[]): HistoryMessage[] {
  return messages.map((m) => {
    const role = m.role === "developer" ? "system" : m.role;
    const h: HistoryMessage = { role, content: text(m.content) };
    if (m.tool_call_id !== undefined) h.tool_call_id = m.tool_call_id;
    if (m.tool_calls && m.tool_calls.length > 0)
      h.tool_calls = m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    if (role === "tool" && m.name) h.tool_name = m.name;
    return h;
  });
}

/** The assembled prompt → Chat Completions messages. */
export function fromPrompt(messages: readonly PromptMessage[]): ChatMessage[] {
  return messages.map((m) => {
    const out: ChatMessage = { role: m.role, content: m.content };
    if (m.role === "tool") out.tool_call_id = m.tool_call_id ?? "";
    if (m.tool_calls && m.tool_calls.length > 0)
      out.tool_calls = m.tool_calls.map((c) => ({
        id: c.id ?? "",
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      }));
    return out;
  });
}
