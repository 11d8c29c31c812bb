import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { ModelMessage, ToolDefinition } from "@artifact-refs/context";
import { parseArguments, type ModelProvider, type ProviderReply } from "./types.js";

export interface OpenAIProviderOptions {
  apiKey?: string;
  baseURL?: string;
  model?: string;
  /** Injected client (tests); otherwise one is built from apiKey/baseURL. */
  client?: OpenAI;
}

function toOpenAI(messages: ModelMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    if (m.role === "tool") return { role: "tool", tool_call_id: m.tool_call_id ?? "", content: m.content };
    if (m.role === "assistant") {
      return {
        role: "assistant",
        content: m.content === "" && m.tool_calls?.length ? null : m.content,
        ...(m.tool_calls?.length
          ? {
              tool_calls: m.tool_calls.map((c, i) => ({
                id: c.id ?? `call_${i}`,
                type: "function" as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    }
    return { role: m.role, content: m.content };
  });
}

/**
 * Any OpenAI-compatible Chat Completions endpoint: OpenAI, Ollama (`OPENAI_BASE_URL=http://localhost:11434/v1`),
 * vLLM, LM Studio. OpenAI bills cached prefixes cheaper; local servers don't, so caching is
 * assumed only for the official endpoint.
 */
export class OpenAIProvider implements ModelProvider {
  readonly kind = "openai";
  readonly label: string;
  readonly promptCaching: boolean;
  readonly #client: OpenAI;
  readonly #model: string;

  constructor(options: OpenAIProviderOptions = {}) {
    this.#model = options.model ?? "gpt-4o-mini";
    const baseURL = options.baseURL;
    this.#client =
      options.client ??
      new OpenAI({
        apiKey: options.apiKey ?? "not-needed-for-local-servers",
        ...(baseURL ? { baseURL } : {}),
        maxRetries: 2,
        timeout: 120_000,
      });
    this.promptCaching = baseURL === undefined || /api\.openai\.com/.test(baseURL);
    this.label = `OpenAI-compatible model ${this.#model}${baseURL ? ` at ${baseURL}` : ""}`;
  }

  async complete({ messages, tools }: { messages: ModelMessage[]; tools: ToolDefinition[] }): Promise<ProviderReply> {
    const response = await this.#client.chat.completions.create({
      model: this.#model,
      messages: toOpenAI(messages),
      ...(tools.length
        ? {
            tools: tools.map(
              (t): ChatCompletionTool => ({
                type: "function",
                function: { name: t.name, description: t.description, parameters: t.parameters },
              }),
            ),
          }
        : {}),
    });
    const message = response.choices[0]?.message;
    const toolCalls = (message?.tool_calls ?? [])
      .filter((c) => c.type === "function")
      .map((c, i) => ({
        id: c.id || `call_${i}`,
        name: c.function.name,
        arguments: parseArguments(c.function.arguments),
      }));
    const usage = response.usage;
    return {
      text: message?.content ?? "",
      toolCalls,
      ...(usage
        ? {
            usage: {
              inputTokens: usage.prompt_tokens,
              outputTokens: usage.completion_tokens,
              ...(usage.prompt_tokens_details?.cached_tokens === undefined
                ? {}
                : { cachedInputTokens: usage.prompt_tokens_details.cached_tokens }),
            },
          }
        : {}),
    };
  }
}
