import type { ModelMessage, ToolDefinition } from "@artifact-refs/context";

export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ProviderReply {
  /** The assistant's text (may be empty when it only calls tools). */
  text: string;
  toolCalls: ToolCallRequest[];
  /** What the provider reported it billed, when it reports it. */
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens?: number };
}

/**
 * A model behind one interface: the offline scripted policy, an OpenAI-compatible endpoint
 * or Anthropic. `kind` is shown in every output so a scripted run is never passed off as an LLM.
 */
export interface ModelProvider {
  readonly kind: "scripted" | "openai" | "anthropic";
  /** What the output calls it, e.g. "scripted policy (offline, deterministic; not an LLM)". */
  readonly label: string;
  /** Whether the provider bills a cached prompt prefix cheaper (chooses the assembler strategy). */
  readonly promptCaching: boolean;
  complete(request: { messages: ModelMessage[]; tools: ToolDefinition[] }): Promise<ProviderReply>;
}

export function parseArguments(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { _raw: raw };
  }
}
