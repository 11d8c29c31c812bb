import {
  modelTextOf,
  SessionRefs,
  toolArgs,
  type ExternalizedResult,
  type SessionRefsOptions,
} from "@artifact-refs/context";
import { ArefError, type ErrorCode } from "@artifact-refs/schema";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";

export interface MastraRefsOptions extends SessionRefsOptions {
  /** Called for every tool output that was handled (stashed or kept inline). */
  onResult?: (result: ExternalizedResult, call: { name: string; callId: string }) => void;
}

/** A Mastra tool as the adapter needs it (what createTool returns). */
export interface MastraToolLike {
  id: string;
  description: string;
  inputSchema?: unknown;
  execute?: (context: never, options?: never) => Promise<unknown>;
}

const int = (min: number, max: number) => z.number().int().min(min).max(max).optional();
/** artifacts_get's input for Mastra (a zod schema; the same fields as the neutral JSON schema, real bounds). */
const GetInput = z.object({
  ref: z.string().min(1).describe("art:<12+ hex>, a full 64-hex id, or aref:v1:sha256:<64 hex>"),
  selector: z
    .object({
      mode: z.enum(["headtail", "grep", "range", "jsonpath"]),
      pattern: z.string().optional(),
      ignoreCase: z.boolean().optional(),
      context: int(0, 100),
      maxMatches: int(1, 1_000_000_000),
      skip: int(0, 1_000_000_000),
      start: int(1, 1_000_000_000),
      end: int(1, 1_000_000_000),
      offset: int(0, 1_000_000_000).describe(
        "range: char offset into the first line (continues a line longer than the cap)",
      ),
      head: int(0, 1_000_000_000),
      tail: int(0, 1_000_000_000),
      expr: z.string().optional(),
      maxChars: int(1, 1_000_000_000),
    })
    .optional()
    .describe("Which part to return (default headtail)"),
});

/**
 * A failed artifacts_get call in Mastra's shape: the `{ error: true, message }` result Mastra itself
 * returns to the model when a tool call's input fails validation (a thrown error would reach the
 * model as a generic TOOL_EXECUTION_FAILED without our code), with the stable `code`.
 */
export interface MastraToolError {
  error: true;
  code: ErrorCode;
  /** `CODE: message` and a hint naming a tool, what the model reads. */
  message: string;
}

/**
 * artifact-refs for Mastra (`@mastra/core`): tools whose large outputs are stashed before they
 * reach the model (which reads a plain-text ref, summary, preview and how to call artifacts_get),
 * and artifacts_get as a Mastra tool.
 */
export class MastraRefs extends SessionRefs {
  #getTool: ReturnType<typeof createTool> | undefined;

  constructor(options: MastraRefsOptions) {
    const onResult = options?.onResult;
    super(
      options,
      "createMastraRefs",
      onResult && ((result, call) => onResult(result, { name: call.name, callId: call.id })),
    );
  }

  /**
   * artifacts_get as a Mastra tool (plain-text answers, bounded); a bad call answers a
   * MastraToolError `{ error: true, code, message }`.
   */
  get artifactsGetTool(): ReturnType<typeof createTool> {
    this.#getTool ??= createTool({
      id: this.definition.name,
      description: this.definition.description,
      inputSchema: GetInput,
      execute: async ({ context }): Promise<string | MastraToolError> => {
        const { text, isError, code } = await this.artifactsGet.respond(context);
        return isError ? { error: true, code: code ?? "INTERNAL", message: text } : text;
      },
    }) as ReturnType<typeof createTool>;
    return this.#getTool;
  }

  /** The same tool (id, description, input schema), whose output is stashed when over the thresholds. */
  wrapTool<T extends MastraToolLike>(original: T): T {
    if (
      original === null ||
      typeof original !== "object" ||
      typeof original.id !== "string" ||
      typeof original.execute !== "function"
    ) {
      throw new ArefError("INVALID_INPUT", "wrapTool takes a Mastra tool made with createTool()", {
        hint: "refs.wrapTool(createTool({ id, description, inputSchema, execute }))",
      });
    }
    if (this.isArtifactsGet(original.id)) return original;
    const execute = async (context: { context?: unknown }, options?: { toolCallId?: string }) => {
      const callId = options?.toolCallId ?? `${original.id}-${Date.now()}`;
      const result = await this.externalizeOutput(
        { name: original.id, id: callId, args: toolArgs(context?.context) },
        () => original.execute!(context as never, options as never),
      );
      return modelTextOf(result);
    };
    // A new Tool with the same id, description and input; no outputSchema: a stored output is a ref, not the original shape.
    return createTool({
      id: original.id,
      description: original.description,
      ...(original.inputSchema ? { inputSchema: original.inputSchema as never } : {}),
      execute: execute as never,
    }) as unknown as T;
  }

  /** The tools record for an Agent: each tool wrapped, artifacts_get added. */
  withArtifacts<T extends Record<string, MastraToolLike>>(tools: T): Record<string, MastraToolLike> {
    const out: Record<string, MastraToolLike> = {};
    for (const [name, t] of Object.entries(tools)) if (!this.isArtifactsGet(name)) out[name] = this.wrapTool(t);
    out[this.definition.name] = this.artifactsGetTool as unknown as MastraToolLike;
    return out;
  }
}

/** `const refs = createMastraRefs({ store, session })` → `new Agent({ …, tools: refs.withArtifacts({ myTool }) })`. */
export function createMastraRefs(options: MastraRefsOptions): MastraRefs {
  return new MastraRefs(options);
}
