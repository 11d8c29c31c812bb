import type { z } from "zod";
import { ArefError, formatIssues } from "@artifact-refs/schema";

/** What a tool returns: its text result, a display hint (docs/ARCHITECTURE.md §executions) and an optional summary. */
export interface ToolOutput {
  result: string;
  /** Display hint for the UI: "code" with a syntax, or "text". */
  display?: { type: "code" | "text"; syntax?: string };
  summary?: string;
  mime?: string;
  resultType?: "success" | "error" | "partial";
}

export interface Tool<A = Record<string, unknown>> {
  /** Registered name, e.g. "read_file"; also callable as "builtin.read_file" for builtins. */
  name: string;
  title: string;
  description: string;
  /** Validates the tool's arguments (also shown in GET /api/tools as JSON Schema). */
  args: z.ZodType<A>;
  run: (args: A, ctx: { signal: AbortSignal }) => Promise<ToolOutput>;
}

export class ToolRegistry {
  readonly #tools = new Map<string, Tool<any>>();

  register<A>(tool: Tool<A>): this {
    if (!/^[A-Za-z][A-Za-z0-9_.-]{0,99}$/.test(tool.name)) {
      throw new ArefError("CONFIG_INVALID", `invalid tool name ${JSON.stringify(tool.name)}`, {
        hint: "use letters, digits, '_', '.', '-'",
      });
    }
    if (this.#tools.has(tool.name)) throw new ArefError("CONFLICT", `a tool named ${tool.name} is already registered`);
    this.#tools.set(tool.name, tool);
    return this;
  }

  /** Looks a tool up by name; "builtin.<name>" (the docs/ARCHITECTURE.md §executions naming) finds the builtin "<name>". */
  get(name: string): Tool<any> {
    const tool =
      this.#tools.get(name) ??
      (name.startsWith("builtin.") ? this.#tools.get(name.slice("builtin.".length)) : undefined);
    if (!tool) {
      throw new ArefError("NOT_FOUND", `no tool named ${JSON.stringify(name.slice(0, 100))}`, {
        hint: `registered tools: ${[...this.#tools.keys()].join(", ") || "none"}`,
      });
    }
    return tool;
  }

  list(): Tool<any>[] {
    return [...this.#tools.values()];
  }

  /** Validates the arguments and runs the tool. */
  async run(name: string, args: unknown, signal: AbortSignal): Promise<{ tool: Tool<any>; output: ToolOutput }> {
    const tool = this.get(name);
    const parsed = tool.args.safeParse(args ?? {});
    if (!parsed.success)
      throw new ArefError("INVALID_INPUT", `invalid arguments for ${tool.name}: ${formatIssues(parsed.error)}`);
    return { tool, output: await tool.run(parsed.data, { signal }) };
  }
}
