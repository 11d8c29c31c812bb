import {
  fitTurns,
  modelTextOf,
  SessionRefs,
  toolArgs,
  type ExternalizedResult,
  type SessionRefsOptions,
  type TurnShape,
  maxInputCharsOf,
} from "@artifact-refs/context";
import { ArefError } from "@artifact-refs/schema";
import { ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";

export interface LangChainRefsOptions extends SessionRefsOptions {
  /** Called for every tool output that was handled (stashed or kept inline). */
  onResult?: (result: ExternalizedResult, call: { name: string; callId: string }) => void;
}

export interface MessageBudget {
  /** Largest model input, in chars of the messages' JSON. Default 48,000 (~12k tokens). */
  maxInputChars?: number;
}

const contentText = (m: BaseMessage) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

/** The same ToolMessage (id, name, call id, error status) with other content. */
const withContent = (m: ToolMessage, content: string) =>
  new ToolMessage({
    content,
    tool_call_id: m.tool_call_id,
    ...(m.name ? { name: m.name } : {}),
    ...(m.id ? { id: m.id } : {}),
    ...(m.status ? { status: m.status } : {}),
  });

/** LangChain messages as fitTurns sees them. */
const MESSAGES: TurnShape<BaseMessage> = {
  sizeOf: (m) => contentText(m).length + JSON.stringify((m as { tool_calls?: unknown }).tool_calls ?? null).length + 40,
  toolOutput: (m) => (ToolMessage.isInstance(m) ? { tool: m.name ?? "a tool", text: contentText(m) } : undefined),
  withToolOutput: (m, text) => withContent(m as ToolMessage, text),
  startsTurn: (m) => m.getType() === "human",
};

/**
 * artifact-refs for LangChain.js: @langchain/core tools whose large outputs are stashed before
 * they become a ToolMessage, artifacts_get as a tool, a LangGraph node that stashes the large
 * ToolMessages another node (a ToolNode) produced, and a budget fit of the messages for a model call.
 */
export class LangChainRefs extends SessionRefs {
  #getTool: StructuredToolInterface | undefined;

  constructor(options: LangChainRefsOptions) {
    const onResult = options?.onResult;
    super(
      options,
      "createLangChainRefs",
      onResult && ((result, call) => onResult(result, { name: call.name, callId: call.id })),
    );
  }

  /**
   * artifacts_get as a LangChain tool (plain-text answers, bounded). A bad call made as a tool
   * call (ToolNode, `invoke(toolCall)`) answers a ToolMessage with `status: "error"` whose content
   * is `CODE: message` and a hint; invoked with plain arguments it throws that ArefError.
   */
  get artifactsGetTool(): StructuredToolInterface {
    this.#getTool ??= tool(
      async (input: unknown, config?: { toolCall?: { id?: string } }) => {
        const { text, isError, code } = await this.artifactsGet.respond(input);
        if (!isError) return text;
        const id = config?.toolCall?.id;
        if (id === undefined) throw new ArefError(code ?? "INTERNAL", text);
        return new ToolMessage({ status: "error", content: text, tool_call_id: id, name: this.definition.name });
      },
      {
        name: this.definition.name,
        description: this.definition.description,
        schema: this.definition.parameters as never,
      },
    ) as unknown as StructuredToolInterface;
    return this.#getTool;
  }

  /** The same tool (name, description, schema), whose output is stashed when over the thresholds. */
  wrapTool(original: StructuredToolInterface): StructuredToolInterface {
    if (
      original === null ||
      typeof original !== "object" ||
      typeof original.invoke !== "function" ||
      typeof original.name !== "string"
    ) {
      throw new ArefError("INVALID_INPUT", "wrapTool takes a @langchain/core tool", {
        hint: "refs.wrapTool(tool(fn, { name, description, schema }))",
      });
    }
    if (this.isArtifactsGet(original.name)) return original;
    return tool(
      async (input: unknown, config?: { toolCall?: { id?: string } }) => {
        const callId = config?.toolCall?.id ?? `${original.name}-${Date.now()}`;
        // Without the tool call in its config the original returns its output, not a ToolMessage.
        const { toolCall: _call, ...rest } = config ?? {};
        const run = async () => {
          const out: unknown = await original.invoke(input as never, rest as never);
          return ToolMessage.isInstance(out) ? out.content : out;
        };
        return modelTextOf(
          await this.externalizeOutput({ name: original.name, id: callId, args: toolArgs(input) }, run),
        );
      },
      { name: original.name, description: original.description, schema: original.schema as never },
    ) as unknown as StructuredToolInterface;
  }

  /**
   * A LangGraph node (put it after a ToolNode): returns the state's ToolMessages that are over
   * the thresholds with their content replaced by the stored ref, under the same message ids, so
   * the messages reducer swaps them before the next model call. artifacts_get answers stay.
   */
  stashToolMessages(): (state: { messages: BaseMessage[] }) => Promise<{ messages: BaseMessage[] }> {
    return async (state) => {
      const replaced: BaseMessage[] = [];
      for (const m of state.messages) {
        if (!ToolMessage.isInstance(m) || this.isArtifactsGet(m.name ?? "") || m.id === undefined) continue;
        const name = m.name ?? "tool";
        const text = contentText(m);
        const prepared = this.externalizer.prepare({
          session: this.session,
          tool: name,
          result: text,
          callId: m.tool_call_id,
        });
        if (!prepared.decision.externalize) continue;
        const result = await this.externalizeOutput({ name, id: m.tool_call_id }, text);
        replaced.push(withContent(m, modelTextOf(result)));
      }
      return { messages: replaced };
    };
  }

  /**
   * The messages for one model call, fitted into `maxInputChars` (see fitTurns in
   * @artifact-refs/context); INVALID_INPUT when it is not a positive whole number.
   */
  fitMessages(messages: BaseMessage[], budget: MessageBudget = {}): BaseMessage[] {
    const max = maxInputCharsOf(budget.maxInputChars, "refs.fitMessages(messages, { maxInputChars: 48_000 })");
    return [...fitTurns(messages, max, MESSAGES)];
  }
}

/** `const refs = createLangChainRefs({ store, session })` → `refs.artifactsGetTool`, `refs.stashToolMessages()`, `refs.fitMessages(…)`. */
export function createLangChainRefs(options: LangChainRefsOptions): LangChainRefs {
  return new LangChainRefs(options);
}
