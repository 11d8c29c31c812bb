import {
  ArtifactsGetTool,
  ARTIFACTS_GET_TOOL_NAME,
  Externalizer,
  type ContextConfig,
  type ContextConfigInput,
  type Deadline,
  type ExternalizedResult,
  type ToolDefinition,
} from "@artifact-refs/context";
import { ArefError, parseSessionId } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";

export interface AnthropicRefsOptions {
  store: ArtifactStore;
  /** The session the stashed outputs belong to (and where artifacts_get resolves short refs). */
  session: string;
  /** Externalizer settings (thresholds, per-tool policy, redaction); see @artifact-refs/context. */
  config?: ContextConfig | ContextConfigInput;
  /** Cap of one artifacts_get answer (default 8,000 chars). */
  maxChars?: number;
  /** Model whose tokenizer counts the inline-token threshold (default cl100k_base). */
  model?: string;
  /** Called for every tool output that was handled (stashed or kept inline). */
  onResult?: (result: ExternalizedResult, call: { name: string; id: string }) => void;
}

/** A `tool_use` content block of an assistant message. */
export interface ToolUseBlock {
  type?: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** A Messages API tool (custom tool with a JSON schema). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [key: string]: unknown };
}

/** A `tool_result` content block for the next user message. */
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** What a tool produced: a value (string, object, bytes) or a function that runs the tool. */
export type ToolOutput = unknown | (() => unknown | Promise<unknown>);

/**
 * artifact-refs for the Anthropic SDK: the artifacts_get tool, and `tool_result` blocks whose
 * large outputs are stashed in the store (the model sees a short ref, a summary and how to
 * fetch a part) before they ever enter `messages`.
 */
export class AnthropicRefs {
  readonly store: ArtifactStore;
  readonly session: string;
  readonly externalizer: Externalizer;
  readonly artifactsGet: ArtifactsGetTool;
  readonly #onResult: AnthropicRefsOptions["onResult"];

  constructor(options: AnthropicRefsOptions) {
    if (options === null || typeof options !== "object" || options.store === undefined) {
      throw new ArefError("INVALID_INPUT", "createAnthropicRefs needs { store, session }", { hint: "e.g. createAnthropicRefs({ store: await openStore('./.refs'), session: 'chat-1' })" });
    }
    this.store = options.store;
    this.session = parseSessionId(options.session);
    this.externalizer = new Externalizer({ store: options.store, ...(options.config ? { config: options.config } : {}), ...(options.model ? { model: options.model } : {}) });
    this.artifactsGet = new ArtifactsGetTool({ store: options.store, session: this.session, ...(options.maxChars ? { maxChars: options.maxChars } : {}) });
    this.#onResult = options.onResult;
  }

  get definition(): ToolDefinition {
    return this.artifactsGet.definition;
  }

  /** Messages API `tools` entries (add them to your own). */
  get tools(): AnthropicTool[] {
    const d = this.definition;
    return [{ name: d.name, description: d.description, input_schema: d.parameters as AnthropicTool["input_schema"] }];
  }

  isArtifactsGet(name: string): boolean {
    return name === ARTIFACTS_GET_TOOL_NAME;
  }

  /**
   * The `tool_result` block for a `tool_use` block: artifacts_get is answered here (bounded;
   * a bad call comes back with `is_error`); any other tool's output (or the function that
   * produces it) is stashed when large.
   */
  async toolResultBlock(block: ToolUseBlock, output?: ToolOutput, deadline?: Deadline): Promise<ToolResultBlock> {
    if (this.isArtifactsGet(block.name)) {
      const content = await this.artifactsGet.handle(block.input);
      return { type: "tool_result", tool_use_id: block.id, content, ...(content.startsWith('{"error":') ? { is_error: true } : {}) };
    }
    if (output === undefined) {
      throw new ArefError("INVALID_INPUT", `no output given for tool ${block.name} (tool_use ${block.id})`, {
        hint: "pass the tool's output, or a function that runs the tool: refs.toolResultBlock(block, () => myTool(block.input))",
      });
    }
    const value = typeof output === "function" ? await (output as () => unknown)() : output;
    const args = block.input !== null && typeof block.input === "object" && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : undefined;
    const result = await this.externalizer.externalize({
      session: this.session,
      tool: block.name,
      result: value,
      callId: block.id,
      ...(args ? { args } : {}),
      ...(deadline === undefined ? {} : { deadline }),
    });
    this.#onResult?.(result, { name: block.name, id: block.id });
    return { type: "tool_result", tool_use_id: block.id, content: result.content };
  }

  /** Answers an artifacts_get `tool_use` block; undefined for any other tool. */
  async handleToolUse(block: ToolUseBlock): Promise<ToolResultBlock | undefined> {
    return this.isArtifactsGet(block.name) ? this.toolResultBlock(block) : undefined;
  }
}

/** `const refs = createAnthropicRefs({ store, session })` → `refs.tools`, `refs.toolResultBlock(block, output)`. */
export function createAnthropicRefs(options: AnthropicRefsOptions): AnthropicRefs {
  return new AnthropicRefs(options);
}
