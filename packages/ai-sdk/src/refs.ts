import {
  ArtifactsGetTool,
  ARTIFACTS_GET_TOOL_NAME,
  checkMessageList,
  SessionRefs,
  toolArgs,
  type ExternalizedResult,
  type SessionRefsOptions,
  type ToolContent,
} from "@artifact-refs/context";
import { ArefError } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { errorResultIds, fromPrompt, fromPromptParts, toHistory } from "./messages.js";
import { jsonSchema, tool, type LanguageModelMiddleware, type ModelMessage, type Tool, type ToolSet } from "ai";

export interface AiSdkRefsOptions extends SessionRefsOptions {
  /**
   * Prompt budget for `prepareStep`, in tokens (default 8,000, docs/ARCHITECTURE.md §references). Each step's prompt is
   * built by the shared assembler inside it; only an irreducible part over it (system prompt,
   * task, request head) fails closed with BUDGET_EXCEEDED naming that part.
   */
  maxPromptTokens?: number;
  /** Called for every tool result that was handled (stashed or kept inline). */
  onResult?: (result: ExternalizedResult, call: { toolName: string; toolCallId: string }) => void;
}

export interface PrepareStepInput {
  messages: ModelMessage[];
  stepNumber?: number;
}

export interface StepBudgetReport {
  stepNumber: number | undefined;
  tokens: number;
  maxPromptTokens: number;
  /** Tool results stashed by this prepareStep call (results already in the history). */
  externalized: number;
}

/**
 * A tool answer in the AI SDK's terms: the text, or, for an error answer, a thrown ArefError whose
 * message is that text; the SDK records a `tool-error` and sends the model an `error-text` output
 * (which providers flag natively, e.g. Anthropic's `is_error`).
 */
function toolOutput({ text, isError, code }: ToolContent): string {
  if (isError) throw new ArefError(code ?? "INTERNAL", text);
  return text;
}

/**
 * The AI SDK tool for artifacts_get: bounded reads of stored artifacts by short ref. A bad call
 * (bad ref, unknown artifact, bad selector) is a tool error: the model reads `CODE: message`
 * with a hint as an `error-text` output.
 */
export function artifactsGetTool(
  options: { store: ArtifactStore; session: string; maxChars?: number } | ArtifactsGetTool,
): Tool {
  const getter =
    options instanceof ArtifactsGetTool
      ? options
      : new ArtifactsGetTool({
          store: options.store,
          session: options.session,
          ...(options.maxChars ? { maxChars: options.maxChars } : {}),
        });
  const d = getter.definition;
  return tool({
    description: d.description,
    inputSchema: jsonSchema<Record<string, unknown>>(d.parameters as Parameters<typeof jsonSchema>[0]),
    execute: async (input: Record<string, unknown>) => toolOutput(await getter.respond(input)),
  });
}

const MESSAGE_ROLES = ["system", "user", "assistant", "tool"] as const;
const PREPARE_STEP_HINT = "generateText({ …, prepareStep: refs.prepareStep }) passes { messages, stepNumber }";

/** Tool results whose model-facing text prepareStep remembers (oldest forgotten first). */
const MAX_REMEMBERED_RESULTS = 5000;

function outputText(output: unknown): { text: string; json: boolean } | undefined {
  if (output === null || typeof output !== "object") return undefined;
  const o = output as { type?: string; value?: unknown };
  if (o.type === "text" && typeof o.value === "string") return { text: o.value, json: false };
  if (o.type === "json") return { text: JSON.stringify(o.value), json: true };
  return undefined;
}

/**
 * artifact-refs for the Vercel AI SDK: tools whose large results are stashed before they
 * enter the conversation, the artifacts_get tool, and a `prepareStep` that stashes large
 * tool results already in the history (from tools you did not wrap, or earlier turns) and
 * keeps each step's prompt within the token budget.
 */
export class AiSdkRefs extends SessionRefs {
  readonly maxPromptTokens: number;
  /** The budget report of the last prepareStep call. */
  lastStep: StepBudgetReport | undefined;
  readonly #model: string | undefined;
  readonly #onResult: AiSdkRefsOptions["onResult"];
  /** toolCallId → model-facing text of a result already externalized in the history. */
  readonly #replaced = new Map<string, string>();

  constructor(options: AiSdkRefsOptions) {
    const maxPromptTokens = options?.maxPromptTokens ?? 8000;
    if (!Number.isInteger(maxPromptTokens) || maxPromptTokens < 1) {
      throw new ArefError(
        "INVALID_INPUT",
        `maxPromptTokens must be a positive whole number, got ${String(options.maxPromptTokens)}`,
      );
    }
    super(options && { ...options, budgets: { ...options.budgets, maxPromptTokens } }, "createAiSdkRefs");
    this.maxPromptTokens = maxPromptTokens;
    this.#model = options.model;
    this.#onResult = options.onResult;
    this.prepareStep = this.prepareStep.bind(this);
  }

  /** The artifacts_get tool (AI SDK `tool()`). */
  get tool(): Tool {
    return artifactsGetTool(this.artifactsGet);
  }

  /** Stashes one tool result when large; returns what the model sees. */
  async externalize(toolName: string, toolCallId: string, result: unknown, args?: unknown): Promise<string> {
    const input = toolArgs(args);
    const out = await this.externalizer.externalize({
      session: this.session,
      tool: toolName,
      result,
      callId: toolCallId,
      ...(input ? { args: input } : {}),
    });
    this.#onResult?.(out, { toolName, toolCallId });
    // prepareStep later finds this result in the history: it must not stash the reference itself.
    this.#replaced.set(toolCallId, out.content);
    if (this.#replaced.size > MAX_REMEMBERED_RESULTS) this.#replaced.delete(this.#replaced.keys().next().value!);
    return out.content;
  }

  /**
   * Your tools, each `execute` wrapped so a large result is stashed and the model gets the
   * reference instead; plus `artifacts_get`. Tools without `execute` are passed through.
   */
  wrapTools<T extends ToolSet>(tools: T): T & { artifacts_get: Tool } {
    const wrapped: Record<string, Tool> = {};
    for (const [name, t] of Object.entries(tools)) {
      if (name === ARTIFACTS_GET_TOOL_NAME) {
        throw new ArefError("INVALID_INPUT", `a tool named ${ARTIFACTS_GET_TOOL_NAME} is already in the set`, {
          hint: "wrapTools adds it; remove yours",
        });
      }
      const execute = t.execute;
      if (execute === undefined) {
        wrapped[name] = t;
        continue;
      }
      wrapped[name] = {
        ...t,
        execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
          const result: unknown = await execute(input, options);
          if (result !== null && typeof result === "object" && Symbol.asyncIterator in result) {
            throw new ArefError("UNSUPPORTED", `tool ${name} streams its result; wrapTools needs a single result`, {
              hint: "leave streaming tools unwrapped; prepareStep still externalizes their final results",
            });
          }
          return this.externalize(name, options.toolCallId, result, input);
        },
      } as Tool;
    }
    return { ...(wrapped as T), artifacts_get: this.tool };
  }

  /**
   * For `generateText` / `streamText({ prepareStep: refs.prepareStep })`: stashes large tool
   * results already in the step's messages, then checks the step's prompt against the token
   * budget (fails closed with BUDGET_EXCEEDED).
   */
  async prepareStep(step: PrepareStepInput): Promise<{ messages: ModelMessage[] }> {
    checkMessageList(step?.messages, { where: "prepareStep", roles: MESSAGE_ROLES, hint: PREPARE_STEP_HINT });
    const { messages, externalized } = await this.#externalizeHistory(step.messages);
    return { messages: await this.#assemble(messages, step.stepNumber, externalized) };
  }

  /**
   * The same as a language model middleware, for code that does not own the generateText call:
   * `wrapLanguageModel({ model, middleware: refs.middleware })`. Every call's prompt has its
   * large tool results stashed and is checked against the token budget.
   */
  get middleware(): LanguageModelMiddleware {
    return {
      specificationVersion: "v3",
      transformParams: async ({ params }) => {
        const { messages, externalized } = await this.#externalizeHistory(params.prompt);
        const prompt = await this.assemblePrompt(toHistory(messages as unknown as ModelMessage[]));
        this.lastStep = {
          stepNumber: undefined,
          tokens: prompt.tokens,
          maxPromptTokens: this.maxPromptTokens,
          externalized,
        };
        return {
          ...params,
          prompt: fromPromptParts(prompt.messages, errorResultIds(messages)) as typeof params.prompt,
        };
      },
    };
  }

  /** Replaces large text/json tool-result outputs in a message list by their references. */
  async #externalizeHistory<M extends { role: string; content: unknown }>(
    input: M[],
  ): Promise<{ messages: M[]; externalized: number }> {
    let externalized = 0;
    const messages: M[] = [];
    for (const message of input) {
      if (message.role !== "tool" || !Array.isArray(message.content)) {
        messages.push(message);
        continue;
      }
      const content: unknown[] = [];
      for (const part of message.content as Array<{
        type: string;
        toolCallId?: string;
        toolName?: string;
        output?: unknown;
      }>) {
        if (
          part.type !== "tool-result" ||
          part.toolName === ARTIFACTS_GET_TOOL_NAME ||
          part.toolCallId === undefined ||
          part.toolName === undefined
        ) {
          content.push(part);
          continue;
        }
        let text = this.#replaced.get(part.toolCallId);
        if (text === undefined) {
          const original = outputText(part.output);
          if (original === undefined) {
            content.push(part);
            continue;
          }
          const value = original.json ? (part.output as { value: unknown }).value : original.text;
          text = await this.externalize(part.toolName, part.toolCallId, value);
          if (text !== original.text) externalized++;
        }
        content.push({ ...part, output: { type: "text" as const, value: text } });
      }
      messages.push({ ...message, content });
    }
    return { messages, externalized };
  }

  /** The step's prompt by the shared assembler (inside the budget, or BUDGET_EXCEEDED naming the part). */
  async #assemble(
    messages: ModelMessage[],
    stepNumber: number | undefined,
    externalized: number,
  ): Promise<ModelMessage[]> {
    const prompt = await this.assemblePrompt(toHistory(messages));
    this.lastStep = { stepNumber, tokens: prompt.tokens, maxPromptTokens: this.maxPromptTokens, externalized };
    return fromPrompt(prompt.messages, errorResultIds(messages));
  }
}

/** `const refs = createAiSdkRefs({ store, session })` → `refs.wrapTools(tools)`, `refs.prepareStep`. */
export function createAiSdkRefs(options: AiSdkRefsOptions): AiSdkRefs {
  return new AiSdkRefs(options);
}
