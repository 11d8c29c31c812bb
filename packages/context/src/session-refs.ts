import { ArefError, parseSessionId } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { ArtifactsGetTool, type ToolContent, type ToolDefinition } from "./artifacts-get.js";
import type { ContextConfig, ContextConfigInput } from "./config.js";
import { Externalizer, type Deadline, type ExternalizedResult } from "./externalizer.js";
import { ARTIFACTS_GET_TOOL_NAME } from "./model-hint.js";
import { countTokens } from "@artifact-refs/budget";
import type { HotState } from "@artifact-refs/schema";
import { PromptAssembler } from "./assembler/assembler.js";
import type { PriceModel, PriceModelName } from "./assembler/price-model.js";
import type { AssembledPrompt, AssemblerBudgets, AssemblyStrategy, HistoryMessage } from "./assembler/types.js";

export interface SessionRefsOptions {
  store: ArtifactStore;
  /** The session the stashed outputs belong to (and where artifacts_get resolves short refs). */
  session: string;
  /** Externalizer settings (thresholds, per-tool policy, redaction). */
  config?: ContextConfig | ContextConfigInput;
  /** Cap of one artifacts_get answer (default 8,000 chars). */
  maxChars?: number;
  /** Model whose tokenizer counts the inline-token threshold and the prompt (default cl100k_base). */
  model?: string;
  /** Budgets of the prompts `assemblePrompt` builds (default: docs/ARCHITECTURE.md §references, 8,000 prompt tokens). */
  budgets?: Partial<AssemblerBudgets>;
  /** Assembly strategy; default from `provider`, else from `priceModel`, else window. */
  strategy?: AssemblyStrategy;
  /** Provider name (anthropic, openai, …): picks append for cache-priced providers. */
  provider?: string;
  /** Prices of the provider's prompt cache (see PromptAssemblerOptions.priceModel). */
  priceModel?: PriceModelName | Partial<PriceModel>;
}

/** What a tool produced: a value (string, object, bytes) or a function that runs the tool. */
export type ToolOutputSource = unknown | (() => unknown | Promise<unknown>);

/** One tool call, in the terms every SDK shares. */
export interface ToolOutputCall {
  name: string;
  id: string;
  args?: Record<string, unknown> | undefined;
}

/** Hears of every tool output `externalizeOutput` handled (stored or kept inline). */
export type ToolResultListener = (result: ExternalizedResult, call: ToolOutputCall) => void;

/** A tool call's arguments when they are a JSON object; undefined for anything else. */
export function toolArgs(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * What the SDK adapters (OpenAI, Anthropic, Vercel AI SDK, …) share: one session's externalizer
 * and bounded artifacts_get tool, and the step that turns a tool's output into what the model
 * sees. Adapters extend it and only add their SDK's message shapes.
 */
export class SessionRefs {
  readonly store: ArtifactStore;
  readonly session: string;
  readonly externalizer: Externalizer;
  readonly artifactsGet: ArtifactsGetTool;
  readonly #onResult: ToolResultListener | undefined;
  readonly #options: SessionRefsOptions;
  #assembler: PromptAssembler | undefined;

  /**
   * `factory` names the caller's entry point in the error for missing options; `onResult`
   * (an adapter passes its option's, in its SDK's terms) hears of every output handled.
   */
  constructor(options: SessionRefsOptions, factory = "new SessionRefs", onResult?: ToolResultListener) {
    if (options === null || typeof options !== "object" || options.store === undefined) {
      throw new ArefError("INVALID_INPUT", `${factory} needs { store, session }`, {
        hint: `e.g. ${factory}({ store: await openStore('./.refs'), session: 'chat-1' })`,
      });
    }
    this.store = options.store;
    this.session = parseSessionId(options.session);
    this.externalizer = new Externalizer({
      store: options.store,
      ...(options.config ? { config: options.config } : {}),
      ...(options.model ? { model: options.model } : {}),
    });
    this.artifactsGet = new ArtifactsGetTool({
      store: options.store,
      session: this.session,
      ...(options.maxChars ? { maxChars: options.maxChars } : {}),
    });
    this.#onResult = onResult;
    this.#options = options;
  }

  /**
   * The prompt of the next model call, by the same assembler `aref analyze` measures: every
   * message over the limits by reference (any role), older turns in a checkpoint, inside the
   * budget; BUDGET_EXCEEDED (naming the part and the overrun) only when the irreducible part
   * (system, task, request head, hot state) alone is over.
   */
  async assemblePrompt(history: readonly HistoryMessage[], hotState?: HotState): Promise<AssembledPrompt> {
    this.#assembler ??= new PromptAssembler({
      store: this.store,
      session: this.session,
      tokenCounter: {
        count: (text) => countTokens(text, this.#options.model === undefined ? {} : { model: this.#options.model }),
      },
      ...(this.#options.budgets ? { budgets: fitBudgets(this.#options.budgets) } : {}),
      ...(this.#options.strategy ? { strategy: this.#options.strategy } : {}),
      ...(this.#options.provider ? { provider: this.#options.provider } : {}),
      ...(this.#options.priceModel ? { priceModel: this.#options.priceModel } : {}),
    });
    return this.#assembler.assemble({ history, hotState: hotState ?? { session_id: this.session } });
  }

  /** The neutral definition of artifacts_get. */
  get definition(): ToolDefinition {
    return this.artifactsGet.definition;
  }

  isArtifactsGet(name: string): boolean {
    return name === ARTIFACTS_GET_TOOL_NAME;
  }

  /**
   * What the model sees for one tool call, and whether it is an error answer (each adapter
   * flags it in its SDK's shape): artifacts_get is answered here (bounded; `input` is its
   * arguments as the SDK gives them, an object or JSON text; a bad call is `isError`), any
   * other tool's output goes through externalizeOutput.
   */
  async toolContent(
    call: ToolOutputCall,
    input: unknown,
    output?: ToolOutputSource,
    deadline?: Deadline,
    usage?: string,
  ): Promise<ToolContent> {
    if (this.isArtifactsGet(call.name)) return this.artifactsGet.respond(input);
    return { text: (await this.externalizeOutput(call, output, deadline, usage)).content, isError: false };
  }

  /**
   * Externalizes one tool's output (running it first when it is a function): stored and
   * replaced by a reference when large, kept inline otherwise; then tells the constructor's
   * `onResult`. `usage` is the hint shown when no output was given.
   */
  async externalizeOutput(
    call: ToolOutputCall,
    output: ToolOutputSource | undefined,
    deadline?: Deadline,
    usage?: string,
  ): Promise<ExternalizedResult> {
    if (output === undefined) {
      throw new ArefError("INVALID_INPUT", `no output given for tool ${call.name} (call ${call.id})`, {
        hint: usage ?? "pass the tool's output, or a function that runs the tool",
      });
    }
    const value = typeof output === "function" ? await (output as () => unknown)() : output;
    const result = await this.externalizer.externalize({
      session: this.session,
      tool: call.name,
      result: value,
      callId: call.id,
      ...(call.args ? { args: call.args } : {}),
      ...(deadline === undefined ? {} : { deadline }),
    });
    this.#onResult?.(result, call);
    return result;
  }
}

/** A small prompt budget without its own hot-state cap gets one that fits inside it. */
function fitBudgets(budgets: Partial<AssemblerBudgets>): Partial<AssemblerBudgets> {
  const max = budgets.maxPromptTokens;
  if (max === undefined || budgets.maxHotStateTokens !== undefined) return budgets;
  return { ...budgets, maxHotStateTokens: Math.max(1, Math.min(1_000, Math.floor(max / 2))) };
}
