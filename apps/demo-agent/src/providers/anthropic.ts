import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam, Tool, ContentBlockParam } from "@anthropic-ai/sdk/resources/messages";
import type { ModelMessage, ToolDefinition } from "@artifact-refs/context";
import type { ModelProvider, ProviderReply } from "./types.js";
import { parseArguments } from "./types.js";

export interface AnthropicProviderOptions {
  apiKey?: string;
  baseURL?: string;
  model?: string;
  maxTokens?: number;
  client?: Anthropic;
}

/** Maps neutral messages onto Anthropic's: system apart, tool results as user tool_result blocks. */
export function toAnthropic(messages: ModelMessage[]): { system: string; messages: MessageParam[] } {
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n\n");
  const out: MessageParam[] = [];
  const push = (role: "user" | "assistant", blocks: ContentBlockParam[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role && Array.isArray(last.content))
      (last.content as ContentBlockParam[]).push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "tool")
      push("user", [{ type: "tool_result", tool_use_id: m.tool_call_id ?? "", content: m.content }]);
    else if (m.role === "assistant") {
      const blocks: ContentBlockParam[] = m.content ? [{ type: "text", text: m.content }] : [];
      for (const [i, c] of (m.tool_calls ?? []).entries())
        blocks.push({ type: "tool_use", id: c.id ?? `toolu_${i}`, name: c.name, input: parseArguments(c.arguments) });
      if (blocks.length) push("assistant", blocks);
    } else push("user", [{ type: "text", text: m.content }]);
  }
  return { system, messages: out };
}

/** Anthropic's Messages API; prompt caching is billed at a tenth for cached prefixes. */
export class AnthropicProvider implements ModelProvider {
  readonly kind = "anthropic";
  readonly label: string;
  readonly promptCaching = true;
  readonly #client: Anthropic;
  readonly #model: string;
  readonly #maxTokens: number;

  constructor(options: AnthropicProviderOptions = {}) {
    this.#model = options.model ?? "claude-sonnet-4-5";
    this.#maxTokens = options.maxTokens ?? 2_048;
    this.#client =
      options.client ??
      new Anthropic({
        apiKey: options.apiKey ?? null,
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        maxRetries: 2,
      });
    this.label = `Anthropic model ${this.#model}`;
  }

  async complete({ messages, tools }: { messages: ModelMessage[]; tools: ToolDefinition[] }): Promise<ProviderReply> {
    const { system, messages: mapped } = toAnthropic(messages);
    const response = await this.#client.messages.create({
      model: this.#model,
      max_tokens: this.#maxTokens,
      ...(system ? { system } : {}),
      messages: mapped,
      ...(tools.length
        ? {
            tools: tools.map(
              (t): Tool => ({
                name: t.name,
                description: t.description,
                input_schema: t.parameters as Tool["input_schema"],
              }),
            ),
          }
        : {}),
    });
    let text = "";
    const toolCalls = [];
    for (const block of response.content) {
      if (block.type === "text") text += block.text;
      else if (block.type === "tool_use")
        toolCalls.push({ id: block.id, name: block.name, arguments: (block.input ?? {}) as Record<string, unknown> });
    }
    return {
      text,
      toolCalls,
      usage: {
        inputTokens: response.usage.input_tokens,
        outputTokens: response.usage.output_tokens,
        ...(response.usage.cache_read_input_tokens == null
          ? {}
          : { cachedInputTokens: response.usage.cache_read_input_tokens }),
      },
    };
  }
}
