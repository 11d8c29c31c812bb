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
import { ArefError, isArefError } from "@artifact-refs/schema";
import {
  tool,
  type Agent,
  type AgentInputItem,
  type CallModelInputFilter,
  type FunctionTool,
  type Tool,
} from "@openai/agents";

export interface AgentsRefsOptions extends SessionRefsOptions {
  /** Called for every tool output that was handled (stashed or kept inline). */
  onResult?: (result: ExternalizedResult, call: { name: string; callId: string }) => void;
}

export interface InputBudget {
  /** Largest model input, in chars of its JSON (items + instructions). Default 48,000 (~12k tokens). */
  maxInputChars?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFunctionTool = FunctionTool<any, any, any>;
type AnyAgent = Agent<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sizeOf = (value: unknown) => JSON.stringify(value).length;
/** The Agents SDK's history items, as fitTurns sees them. */
const AGENT_ITEMS: TurnShape<AgentInputItem> = {
  sizeOf,
  toolOutput: (item) => {
    const r = item as { type?: string; name?: string; output?: unknown };
    if (r.type !== "function_call_result") return undefined;
    return { tool: r.name ?? "a tool", text: typeof r.output === "string" ? r.output : JSON.stringify(r.output) };
  },
  withToolOutput: (item, text) => ({ ...item, output: text }) as AgentInputItem,
  startsTurn: (item) => (item as { role?: string }).role === "user",
};

/**
 * artifact-refs for the OpenAI Agents SDK (`@openai/agents`): tools whose large outputs are
 * stashed in the store before the SDK puts them in the run's history (the model reads a short
 * ref, a summary, a preview and how to call artifacts_get, in plain text), the bounded
 * artifacts_get tool, and a model-input filter that keeps every model call inside a budget.
 */
export class AgentsRefs extends SessionRefs {
  #getTool: AnyFunctionTool | undefined;

  constructor(options: AgentsRefsOptions) {
    const onResult = options?.onResult;
    super(
      options,
      "createAgentsRefs",
      onResult && ((result, call) => onResult(result, { name: call.name, callId: call.id })),
    );
  }

  /**
   * artifacts_get as an Agents SDK function tool (answers in plain text, bounded). A bad call is
   * a tool error the SDK's way: `execute` throws the ArefError, the SDK records it on the tool's
   * span (non-fatal) and `errorFunction` gives the model its `CODE: message` and hint.
   */
  get artifactsGetTool(): AnyFunctionTool {
    this.#getTool ??= tool({
      name: this.definition.name,
      description: this.definition.description,
      parameters: this.definition.parameters as never,
      strict: false,
      execute: async (input: unknown) => {
        const { text, isError, code } = await this.artifactsGet.respond(input);
        if (isError) throw new ArefError(code ?? "INTERNAL", text);
        return text;
      },
      // Any other failure keeps the SDK's fixed message: its details stay out of the prompt.
      errorFunction: (_context, error) =>
        isArefError(error) ? error.message : "An error occurred while running the tool. Please try again.",
    }) as AnyFunctionTool;
    return this.#getTool;
  }

  /** The same tool, whose output is stashed when it is over the thresholds (the ref goes to the model instead). */
  wrapTool<T extends AnyFunctionTool>(fn: T): T {
    if (fn === null || typeof fn !== "object" || fn.type !== "function" || typeof fn.invoke !== "function") {
      throw new ArefError("INVALID_INPUT", "wrapTool takes a function tool made with tool() from @openai/agents", {
        hint: "refs.wrapTool(tool({ name, parameters, execute }))",
      });
    }
    if (this.isArtifactsGet(fn.name)) return fn;
    const invoke: AnyFunctionTool["invoke"] = async (runContext, input, details) => {
      let args: Record<string, unknown> | undefined;
      try {
        args = toolArgs(JSON.parse(input));
      } catch {
        args = undefined;
      }
      const callId = (details?.toolCall as { callId?: string } | undefined)?.callId ?? `${fn.name}-${Date.now()}`;
      const result = await this.externalizeOutput({ name: fn.name, id: callId, args }, () =>
        fn.invoke(runContext, input, details),
      );
      return modelTextOf(result);
    };
    return { ...fn, invoke };
  }

  /** A copy of the agent whose function tools are wrapped, with artifacts_get added. */
  withArtifacts<A extends AnyAgent>(agent: A): A {
    const tools = (agent.tools as Tool[]).filter((t) => !(t.type === "function" && this.isArtifactsGet(t.name)));
    return agent.clone({
      tools: [
        ...tools.map((t) => (t.type === "function" ? this.wrapTool(t as AnyFunctionTool) : t)),
        this.artifactsGetTool,
      ],
    } as never) as A;
  }

  /**
   * A `callModelInputFilter` (RunConfig) that keeps each model call under `maxInputChars`:
   * older tool outputs become one line that keeps their artifact refs, then the oldest whole
   * turns (from one user message to the next) are left out. Fails closed with BUDGET_EXCEEDED
   * when even the latest turn does not fit; INVALID_INPUT when `maxInputChars` is not a positive
   * whole number.
   */
  inputFilter(budget: InputBudget = {}): CallModelInputFilter {
    const max = maxInputCharsOf(budget.maxInputChars, "refs.inputFilter({ maxInputChars: 48_000 })");
    return ({ modelData }) => {
      const input = fitTurns(modelData.input, max, AGENT_ITEMS, sizeOf(modelData.instructions ?? ""));
      return input === modelData.input ? modelData : { ...modelData, input: [...input] };
    };
  }
}

/** `const refs = createAgentsRefs({ store, session })` → `refs.withArtifacts(agent)`, `refs.inputFilter()`. */
export function createAgentsRefs(options: AgentsRefsOptions): AgentsRefs {
  return new AgentsRefs(options);
}
