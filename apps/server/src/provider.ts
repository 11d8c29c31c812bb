import { z } from "zod";
import type { ModelMessage } from "@artifact-refs/context";
import { ArefError } from "@artifact-refs/schema";

/** A chat model the chat endpoint can ask for an answer. */
export interface ChatProvider {
  name: string;
  complete(messages: ModelMessage[], signal: AbortSignal): Promise<string>;
}

const CompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/**
 * A provider for any OpenAI-compatible /v1/chat/completions endpoint (OpenAI, a local
 * llama.cpp or Ollama server). Configured by the embedding app or by env vars in `aref serve`.
 */
export function openAiCompatibleProvider(options: {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}): ChatProvider {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  return {
    name: `openai-compatible:${options.model}`,
    async complete(messages, signal) {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: options.model, messages }),
          signal: AbortSignal.any([signal, timeout]),
        });
      } catch (cause) {
        throw new ArefError("UNAVAILABLE", `the chat provider at ${options.baseUrl} did not answer`, {
          cause,
          hint: "check the provider URL and that it is running",
        });
      }
      if (!response.ok) {
        throw new ArefError("UNAVAILABLE", `the chat provider answered HTTP ${response.status}`, {
          hint: "check the provider's model name and API key",
        });
      }
      const parsed = CompletionSchema.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) throw new ArefError("UNAVAILABLE", "the chat provider's answer is not a chat completion");
      return parsed.data.choices[0]!.message.content ?? "";
    },
  };
}
