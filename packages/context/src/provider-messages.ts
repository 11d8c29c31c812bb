// The part of every adapter's "provider messages → history" conversion that is the same for all
// of them: a message's content parts (text, tool calls, tool results, anything else) become the
// assembler's history messages. Each adapter maps its SDK's part names onto `MessagePart`.
import { ArefError } from "@artifact-refs/schema";
import type { HistoryMessage } from "./assembler/types.js";

/**
 * Checks an SDK message list before an adapter reads it: an array of objects whose `role` is one
 * of `roles` and whose `content` is a string or an array of parts (or null/absent where
 * `nullContent`). Anything else is INVALID_INPUT naming the message, not a TypeError inside the adapter.
 */
export function checkMessageList(
  messages: unknown,
  options: { where: string; roles: readonly string[]; nullContent?: boolean; hint: string },
): void {
  const fail = (what: string) => {
    throw new ArefError("INVALID_INPUT", `${options.where}: ${what}`, { hint: options.hint });
  };
  if (!Array.isArray(messages)) fail(`messages must be an array, got ${messages === null ? "null" : typeof messages}`);
  for (const [i, m] of (messages as unknown[]).entries()) {
    const { role, content } = (m ?? {}) as { role?: unknown; content?: unknown };
    if (typeof m !== "object" || m === null || typeof role !== "string" || !options.roles.includes(role))
      fail(`message ${i} has no role of ${options.roles.join(", ")}`);
    if (!(typeof content === "string" || Array.isArray(content) || (options.nullContent && content == null)))
      fail(`message ${i} (${String(role)}): content must be a string or an array of parts`);
  }
}

/** One content part of a provider message, in the terms the adapters share. */
export type MessagePart =
  | { type: "text"; text: string }
  | { type: "tool-call"; id: string | null; name: string; input: unknown }
  | { type: "tool-result"; id: string | null; name?: string | undefined; content: string }
  | { type: "other"; value: unknown };

/**
 * One provider message's parts → history messages: each tool result becomes a tool message, in
 * order; the text parts (joined by newlines) and the tool calls become one message of `role` after
 * them, and any other part (image, file, reasoning) is kept there as JSON text, so it is counted
 * and, when large, stored like any content. `keepEmpty` pushes that message even when it has no
 * text and no calls.
 */
export function partsToHistory(
  role: "system" | "user" | "assistant",
  parts: Iterable<MessagePart>,
  keepEmpty: boolean,
): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  const texts: string[] = [];
  const calls: NonNullable<HistoryMessage["tool_calls"]> = [];
  for (const p of parts) {
    if (p.type === "tool-result")
      out.push({ role: "tool", content: p.content, tool_call_id: p.id, ...(p.name ? { tool_name: p.name } : {}) });
    else if (p.type === "tool-call") calls.push({ id: p.id, name: p.name, arguments: JSON.stringify(p.input ?? {}) });
    else if (p.type === "text") texts.push(p.text);
    else texts.push(JSON.stringify(p.value));
  }
  if (keepEmpty || texts.length > 0 || calls.length > 0)
    out.push({ role, content: texts.join("\n"), ...(calls.length > 0 ? { tool_calls: calls } : {}) });
  return out;
}

/** Content parts as one text: text parts as their text, any other part as JSON, joined by newlines. */
export function partsText(parts: ReadonlyArray<{ type?: string; text?: string }>): string {
  return parts.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : JSON.stringify(p))).join("\n");
}

/** A tool call's arguments text → the input object SDKs want (the raw text under `arguments` when it is not JSON). */
export function toolCallInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { arguments: text };
  }
}
