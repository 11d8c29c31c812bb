import type { ModelMessage } from "./types.js";

/**
 * Deterministic text of one prompt message: what the assembler counts and what the
 * prefix comparison of `append` works on. The same message always renders to the same bytes.
 */
export function renderMessage(message: ModelMessage): string {
  let head = `<|${message.role}|>`;
  if (message.name) head += `(${message.name})`;
  if (message.tool_call_id) head += `[${message.tool_call_id}]`;
  let text = `${head}\n${message.content}`;
  for (const call of message.tool_calls ?? []) text += `\n<|call|>${call.name} ${call.arguments}`;
  return `${text}\n`;
}

/** Stable JSON: object keys sorted, so an unchanged value is byte-identical from call to call. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Head and tail of `text` within `maxChars`, with a marker saying what was left out. */
export function headTailExcerpt(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = (omitted: number) => `\n…[${omitted} chars omitted]…\n`;
  const room = Math.max(0, maxChars - marker(text.length).length);
  const head = Math.ceil(room * 0.75);
  const tail = room - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}${marker(omitted)}${tail > 0 ? text.slice(text.length - tail) : ""}`;
}

/** The action an assistant message takes, in one short line (for checkpoint summaries). */
export function actionLine(
  content: string,
  toolCalls: readonly { name: string; arguments: string }[] | undefined,
  maxChars: number,
): string {
  let line: string;
  const call = toolCalls?.[0];
  if (call) line = `${call.name} ${call.arguments}`;
  else {
    const blocks = [...content.matchAll(/```[a-z]*\n([\s\S]*?)```/g)];
    const last = blocks.at(-1)?.[1];
    line = last ?? content;
  }
  line = line.replace(/\s+/g, " ").trim();
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
