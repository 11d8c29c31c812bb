import {
  checkMessageList,
  SessionRefs,
  toolArgs,
  type Deadline,
  type ExternalizedResult,
  type SessionRefsOptions,
  type ToolOutputSource,
} from "@artifact-refs/context";

import { fromPrompt, toHistory, type ChatMessage } from "./prompt.js";

export type { ToolOutputSource };

export interface OpenAIRefsOptions extends SessionRefsOptions {
  /** Called for every tool output that was handled (stashed or kept inline). */
  onResult?: (result: ExternalizedResult, call: { name: string; callId: string }) => void;
}

/** A Chat Completions tool call (the shape of `message.tool_calls[i]`). */
export interface ChatToolCall {
  id: string;
  type?: string;
  function: { name: string; arguments: string };
}

/** A Responses API function call output item (`{type: "function_call", call_id, name, arguments}`). */
export interface ResponsesFunctionCall {
  type?: "function_call";
  call_id: string;
  name: string;
  arguments: string;
}

/** Chat Completions function tool. */
export interface ChatFunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

/** Responses API function tool. */
export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

export interface ChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export interface FunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    return toolArgs(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * artifact-refs for the OpenAI SDK: the artifacts_get tool in both API formats, and tool
 * messages whose large outputs are stashed in the store (the model sees a short ref,
 * a summary and how to fetch a part) before they ever enter `messages` / `input`.
 */
export class OpenAIRefs extends SessionRefs {
  constructor(options: OpenAIRefsOptions) {
    const onResult = options?.onResult;
    super(
      options && { provider: "openai", ...options },
      "createOpenAIRefs",
      onResult && ((result, call) => onResult(result, { name: call.name, callId: call.id })),
    );
  }

  /** Chat Completions `tools` entries (add them to your own). */
  get tools(): ChatFunctionTool[] {
    const d = this.definition;
    return [{ type: "function", function: { name: d.name, description: d.description, parameters: d.parameters } }];
  }

  /** Responses API `tools` entries. */
  get responsesTools(): ResponsesFunctionTool[] {
    const d = this.definition;
    return [{ type: "function", name: d.name, description: d.description, parameters: d.parameters, strict: false }];
  }

  /**
   * The model-facing content for one tool call: artifacts_get is answered here (bounded);
   * any other tool's output (or the function that produces it) is externalized when large.
   * OpenAI tool messages have no error field: a bad artifacts_get call says so in the text
   * itself (`CODE: message` and a hint), which is all the model reads.
   */
  async contentFor(
    name: string,
    argsText: string,
    callId: string,
    output?: ToolOutputSource,
    deadline?: Deadline,
  ): Promise<string> {
    const { text } = await this.toolContent(
      { name, id: callId, args: parseArguments(argsText) },
      argsText,
      output,
      deadline,
      "pass the tool's output, or a function that runs the tool: refs.toolMessage(call, () => myTool(args))",
    );
    return text;
  }

  /** Chat Completions: the `{role: "tool"}` message for a tool call (artifacts_get needs no output). */
  async toolMessage(call: ChatToolCall, output?: ToolOutputSource, deadline?: Deadline): Promise<ChatToolMessage> {
    return {
      role: "tool",
      tool_call_id: call.id,
      content: await this.contentFor(call.function.name, call.function.arguments, call.id, output, deadline),
    };
  }

  /** Answers an artifacts_get call (Chat Completions); undefined for any other tool. */
  async handleToolCall(call: ChatToolCall): Promise<ChatToolMessage | undefined> {
    return this.isArtifactsGet(call.function.name) ? this.toolMessage(call) : undefined;
  }

  /** Responses API: the `function_call_output` item for a function call. */
  async functionCallOutput(
    call: ResponsesFunctionCall,
    output?: ToolOutputSource,
    deadline?: Deadline,
  ): Promise<FunctionCallOutput> {
    return {
      type: "function_call_output",
      call_id: call.call_id,
      output: await this.contentFor(call.name, call.arguments, call.call_id, output, deadline),
    };
  }

  /**
   * The prompt of the next Chat Completions call, by the shared assembler: inside the budget,
   * large messages of any role by reference, older turns in a checkpoint (BUDGET_EXCEEDED,
   * naming the part, only when the irreducible part is over).
   */
  async prompt(messages: readonly ChatMessage[]): Promise<ChatMessage[]> {
    checkMessageList(messages, {
      where: "OpenAIRefs.prompt",
      roles: ["system", "developer", "user", "assistant", "tool"],
      nullContent: true,
      hint: "pass the Chat Completions messages array",
    });
    return fromPrompt((await this.assemblePrompt(toHistory(messages))).messages);
  }
}

/** `const refs = createOpenAIRefs({ store, session })` → `refs.tools`, `refs.toolMessage(call, output)`. */
export function createOpenAIRefs(options: OpenAIRefsOptions): OpenAIRefs {
  return new OpenAIRefs(options);
}
