import {
  checkMessageList,
  SessionRefs,
  toolArgs,
  type Deadline,
  type ExternalizedResult,
  type SessionRefsOptions,
  type ToolOutputSource,
} from "@artifact-refs/context";

import { errorResultIds, fromPrompt, toHistory, type AnthropicMessage } from "./prompt.js";

export type { ToolOutputSource };

export interface AnthropicRefsOptions extends SessionRefsOptions {
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

/**
 * artifact-refs for the Anthropic SDK: the artifacts_get tool, and `tool_result` blocks whose
 * large outputs are stashed in the store (the model sees a short ref, a summary and how to
 * fetch a part) before they ever enter `messages`.
 */
export class AnthropicRefs extends SessionRefs {
  constructor(options: AnthropicRefsOptions) {
    const onResult = options?.onResult;
    super(
      options && { provider: "anthropic", ...options },
      "createAnthropicRefs",
      onResult && ((result, call) => onResult(result, { name: call.name, id: call.id })),
    );
  }

  /** Messages API `tools` entries (add them to your own). */
  get tools(): AnthropicTool[] {
    const d = this.definition;
    return [{ name: d.name, description: d.description, input_schema: d.parameters as AnthropicTool["input_schema"] }];
  }

  /**
   * The `tool_result` block for a `tool_use` block: artifacts_get is answered here (bounded;
   * a bad call comes back with `is_error`); any other tool's output (or the function that
   * produces it) is stashed when large.
   */
  async toolResultBlock(block: ToolUseBlock, output?: ToolOutputSource, deadline?: Deadline): Promise<ToolResultBlock> {
    const { text, isError } = await this.toolContent(
      { name: block.name, id: block.id, args: toolArgs(block.input) },
      block.input,
      output,
      deadline,
      "pass the tool's output, or a function that runs the tool: refs.toolResultBlock(block, () => myTool(block.input))",
    );
    return { type: "tool_result", tool_use_id: block.id, content: text, ...(isError ? { is_error: true } : {}) };
  }

  /** Answers an artifacts_get `tool_use` block; undefined for any other tool. */
  async handleToolUse(block: ToolUseBlock): Promise<ToolResultBlock | undefined> {
    return this.isArtifactsGet(block.name) ? this.toolResultBlock(block) : undefined;
  }

  /**
   * The `system` and `messages` of the next Messages API call, by the shared assembler: inside
   * the budget, large messages of any role by reference, older turns in a checkpoint
   * (BUDGET_EXCEEDED, naming the part, only when the irreducible part is over). A tool_result
   * flagged `is_error` keeps its flag.
   */
  async prompt(request: {
    system?: string;
    messages: readonly AnthropicMessage[];
  }): Promise<{ system: string; messages: AnthropicMessage[] }> {
    checkMessageList(request?.messages, {
      where: "AnthropicRefs.prompt",
      roles: ["user", "assistant"],
      hint: "pass { system?, messages } as for messages.create",
    });
    const prompt = await this.assemblePrompt(toHistory(request.system, request.messages));
    return fromPrompt(prompt.messages, errorResultIds(request.messages));
  }
}

/** `const refs = createAnthropicRefs({ store, session })` → `refs.tools`, `refs.toolResultBlock(block, output)`. */
export function createAnthropicRefs(options: AnthropicRefsOptions): AnthropicRefs {
  return new AnthropicRefs(options);
}
