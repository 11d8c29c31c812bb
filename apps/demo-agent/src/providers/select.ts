import { ArefError } from "@artifact-refs/schema";
import { AnthropicProvider } from "./anthropic.js";
import { OpenAIProvider } from "./openai.js";
import { ScriptedProvider } from "./scripted.js";
import type { ModelProvider } from "./types.js";

export type ProviderChoice = "auto" | "scripted" | "openai" | "anthropic";

/**
 * Picks the model: `auto` uses OpenAI-compatible when OPENAI_API_KEY or OPENAI_BASE_URL is
 * set, Anthropic when ANTHROPIC_API_KEY is set, else the offline scripted policy.
 */
export function selectProvider(choice: ProviderChoice, env: NodeJS.ProcessEnv, model?: string): ModelProvider {
  const openai = () =>
    new OpenAIProvider({
      ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
      ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}),
      ...((model ?? env.OPENAI_MODEL) ? { model: model ?? env.OPENAI_MODEL } : {}),
    });
  const anthropic = () => {
    if (!env.ANTHROPIC_API_KEY)
      throw new ArefError("CONFIG_INVALID", "the anthropic provider needs ANTHROPIC_API_KEY", {
        hint: "set it, or use --provider scripted",
      });
    return new AnthropicProvider({
      apiKey: env.ANTHROPIC_API_KEY,
      ...((model ?? env.ANTHROPIC_MODEL) ? { model: model ?? env.ANTHROPIC_MODEL } : {}),
      ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
    });
  };
  switch (choice) {
    case "scripted":
      return new ScriptedProvider();
    case "openai":
      if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) {
        throw new ArefError("CONFIG_INVALID", "the openai provider needs OPENAI_API_KEY or OPENAI_BASE_URL", {
          hint: "for Ollama: OPENAI_BASE_URL=http://localhost:11434/v1",
        });
      }
      return openai();
    case "anthropic":
      return anthropic();
    case "auto":
      if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return openai();
      if (env.ANTHROPIC_API_KEY) return anthropic();
      return new ScriptedProvider();
  }
}
