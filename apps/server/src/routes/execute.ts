import { z } from "zod";
import { ExecutionContextShapeSchema } from "@artifact-refs/context";
import {
  ArefError,
  ExecutionRecordSchema,
  SelectionSchema,
  isArefError,
  toShortRef,
  type ExecutionRecord,
} from "@artifact-refs/schema";
import { assertSession } from "../auth.js";
import type { AppContext } from "../app-context.js";
import { defineRoute, type RouteDef } from "../route.js";
import { ContextParams, ExecuteBodySchema, FetchQuerySchema, selectorOf, type ExecuteItem } from "../schemas.js";
import { PageQuerySchema } from "./common.js";
import type { Tool } from "@artifact-refs/tools";
import { ERROR_RESPONSES } from "./common.js";

/** The result text an execute response carries; the whole result is in the store (result_ref). */
export const EXECUTE_RESULT_MAX_CHARS = 8_000;
const TOOL_TIMEOUT_MS = 30_000;

export const ExecutionResponseSchema = z.object({
  execution_id: z.string(),
  status: z.enum(["success", "error", "partial"]),
  tool_name: z.string(),
  artifact_title: z.string(),
  result: z
    .string()
    .describe(
      `the result, cut at ${EXECUTE_RESULT_MAX_CHARS} chars (result_truncated says so; fetch result_ref for the rest)`,
    ),
  result_truncated: z.boolean(),
  result_size: z.number().int(),
  result_ref: z.string().optional(),
  short_ref: z.string().optional(),
  display: z.object({ type: z.string(), syntax: z.string().optional(), content: z.string() }),
  summary: z.string(),
  timestamp: z.string(),
  error: z.object({ code: z.string(), message: z.string(), hint: z.string().optional() }).optional(),
});
export type ExecutionResponse = z.infer<typeof ExecutionResponseSchema>;

export const BatchResponseSchema = z.object({
  session_id: z.string(),
  status: z.enum(["success", "error", "partial"]),
  executions: z.array(ExecutionResponseSchema),
});

export const ContextViewSchema = ExecutionContextShapeSchema;

export const ExecutionResultReceiptSchema = SelectionSchema.extend({
  execution_id: z.string(),
  result_ref: z.string().optional(),
  short_ref: z.string().optional(),
});

export const ToolsReceiptSchema = z.object({
  tools: z.array(
    z.object({ name: z.string(), title: z.string(), description: z.string(), args: z.record(z.string(), z.unknown()) }),
  ),
});

function cut(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let at = max;
  const code = text.charCodeAt(at - 1);
  if (code >= 0xd800 && code <= 0xdbff) at--; // never split a surrogate pair
  return { text: text.slice(0, at), truncated: true };
}

export function executeRoutes(app: AppContext): RouteDef<any, any, any>[] {
  const { tools, kit, telemetry } = app;

  async function runOne(
    session: string,
    userId: string | undefined,
    item: ExecuteItem,
    tool: Tool<any>,
    interaction: string,
  ): Promise<ExecutionResponse> {
    let record: ExecutionRecord;
    let display: { type: "code" | "text"; syntax?: string } = { type: "text" };
    let errorInfo: ExecutionResponse["error"];
    let result: string;
    const title = item.artifact_title ?? tool.title;
    const base = {
      session_id: session,
      tool_name: item.tool_name,
      tool_args: item.tool_args,
      artifact_type: item.artifact_type,
      artifact_title: title,
      interaction_type: interaction,
      ...(userId === undefined ? {} : { user_id: userId }),
      ...(item.label === undefined ? {} : { label: item.label }),
    };
    try {
      const { output } = await tools.run(item.tool_name, item.tool_args, AbortSignal.timeout(TOOL_TIMEOUT_MS));
      result = output.result;
      display = output.display ?? display;
      record = await kit.executions.record({
        ...base,
        result,
        result_type: output.resultType ?? "success",
        ...(output.summary === undefined ? {} : { summary: output.summary }),
        ...(output.mime === undefined ? {} : { mime: output.mime }),
      });
    } catch (error) {
      // A tool that fails is a recorded execution with status "error" (docs/ARCHITECTURE.md §executions), not a server fault.
      const e = isArefError(error)
        ? error
        : new ArefError("IO_ERROR", `${tool.name} failed: ${(error as Error)?.message ?? String(error)}`);
      errorInfo = { code: e.code, message: e.message, ...(e.hint === undefined ? {} : { hint: e.hint }) };
      result = `${e.code}: ${e.message}`;
      record = await kit.executions.record({
        ...base,
        result,
        result_type: "error",
        summary: `${title} failed: ${e.message}`.slice(0, 500),
      });
    }
    telemetry.executions.inc({ tool: tool.name, status: record.result_type });
    // Show what was recorded (after the context kit's redaction), not the raw tool output.
    if (record.result_type !== "error") result = await kit.executions.result(record);
    const shown = cut(result, EXECUTE_RESULT_MAX_CHARS);
    return {
      execution_id: record.execution_id,
      status: record.result_type,
      tool_name: record.tool_name,
      artifact_title: record.artifact_title,
      result: shown.text,
      result_truncated: shown.truncated,
      result_size: record.result_size,
      ...(record.result_ref === undefined
        ? {}
        : { result_ref: record.result_ref, short_ref: toShortRef(record.result_ref) }),
      display: { ...display, content: shown.text },
      summary: record.result_summary,
      timestamp: record.timestamp,
      ...(errorInfo === undefined ? {} : { error: errorInfo }),
    };
  }

  const execute = defineRoute({
    method: "POST",
    url: "/api/artifacts/execute",
    summary: "Run a registered tool (or a batch), record each execution, return the §executions response",
    description:
      "Single: { session_id, tool_name, tool_args, artifact_title?, artifact_type?, artifact_id? }. Batch: { session_id, batch: [ {tool_name, tool_args, …} ] }. " +
      'Unknown tools and invalid arguments are 4xx before anything runs; a tool that fails (missing file, path outside the workspace) is a recorded execution with status "error".',
    tags: ["executions"],
    auth: true,
    body: ExecuteBodySchema,
    responses: {
      200: {
        description: "the execution (single) or { session_id, status, executions } (batch)",
        schema: z.union([ExecutionResponseSchema, BatchResponseSchema]),
      },
      ...ERROR_RESPONSES,
    },
    async handler({ body, principal }) {
      assertSession(principal, body.session_id);
      const items = "batch" in body ? body.batch : [body];
      // Validate every item before running any: unknown tool → 404, bad arguments → 400.
      const resolved = items.map((item) => {
        const tool = tools.get(item.tool_name);
        const parsed = tool.args.safeParse(item.tool_args);
        if (!parsed.success) {
          throw new ArefError(
            "INVALID_INPUT",
            `invalid arguments for ${tool.name}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
            {
              hint: "GET /api/tools lists each tool's arguments",
            },
          );
        }
        return { item, tool };
      });
      if (!("batch" in body))
        return runOne(body.session_id, body.user_id, resolved[0]!.item, resolved[0]!.tool, "form_submit");
      const executions: ExecutionResponse[] = [];
      for (const { item, tool } of resolved) {
        executions.push(
          await runOne(
            body.session_id,
            body.user_id,
            { ...item, artifact_title: item.artifact_title ?? body.artifact_title },
            tool,
            "batch_execute",
          ),
        );
      }
      const failed = executions.filter((e) => e.status === "error").length;
      return {
        session_id: body.session_id,
        status: failed === 0 ? "success" : failed === executions.length ? "error" : "partial",
        executions,
      };
    },
  });

  const context = defineRoute({
    method: "GET",
    url: "/api/artifacts/context/:session_id",
    summary:
      "The session's artifact context (docs/ARCHITECTURE.md §executions): executions, recent files, recent tools",
    tags: ["executions"],
    auth: true,
    params: ContextParams,
    responses: { 200: { description: "the context", schema: ContextViewSchema }, ...ERROR_RESPONSES },
    async handler({ params, principal }) {
      assertSession(principal, params.session_id);
      return kit.contextView(params.session_id);
    },
  });

  const execution = defineRoute({
    method: "GET",
    url: "/api/sessions/:id/executions",
    summary: "A session's newest execution records (a page), oldest first; `before` pages back",
    description:
      "Read from the store on every request, so any server instance on the same store answers the same. `before` is the cursor the previous page returned.",
    tags: ["executions", "sessions"],
    auth: true,
    params: z.object({ id: ContextParams.shape.session_id }).strict(),
    query: PageQuerySchema,
    responses: {
      200: {
        description: "the records",
        schema: z.object({
          session: z.string(),
          executions: z.array(ExecutionRecordSchema),
          before: z.string().optional(),
          skipped: z.number().int().optional(),
        }),
      },
      ...ERROR_RESPONSES,
    },
    async handler({ params, query, principal }) {
      assertSession(principal, params.id);
      const options = { limit: query.limit ?? 100, ...(query.before ? { before: query.before } : {}) };
      if (kit.executions.page) return { session: params.id, ...(await kit.executions.page(params.id, options)) };
      return { session: params.id, executions: await kit.executions.list(params.id, options) };
    },
  });

  const toolList = defineRoute({
    method: "GET",
    url: "/api/tools",
    summary: "The tools /api/artifacts/execute can run, with their arguments as JSON Schema",
    tags: ["executions"],
    auth: true,
    responses: { 200: { description: "the tools", schema: ToolsReceiptSchema }, ...ERROR_RESPONSES },
    async handler() {
      return {
        tools: tools.list().map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          args: z.toJSONSchema(t.args, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
        })),
      };
    },
  });

  const result = defineRoute({
    method: "GET",
    url: "/api/sessions/:id/executions/:execution_id/result",
    summary:
      "Bounded fetch of an execution's full result (inline or stored), with the same selectors as GET /api/artifacts/:ref",
    tags: ["executions", "sessions"],
    auth: true,
    params: z.object({ id: ContextParams.shape.session_id, execution_id: z.string().min(1).max(200) }).strict(),
    query: FetchQuerySchema.omit({ session: true }),
    responses: { 200: { description: "the selection", schema: ExecutionResultReceiptSchema }, ...ERROR_RESPONSES },
    async handler({ params, query, principal }) {
      assertSession(principal, params.id);
      const record = kit.executions.find
        ? await kit.executions.find(params.id, params.execution_id)
        : (await kit.executions.list(params.id)).find((e) => e.execution_id === params.execution_id);
      if (!record)
        throw new ArefError("NOT_FOUND", `session ${params.id} has no execution with that id`, {
          hint: "list them with GET /api/artifacts/context/<session>",
        });
      const selector = selectorOf(query);
      const text = await kit.executions.result(record);
      return {
        execution_id: record.execution_id,
        ...(record.result_ref === undefined
          ? {}
          : { result_ref: record.result_ref, short_ref: toShortRef(record.result_ref) }),
        ...kit.select(text, selector),
      };
    },
  });

  return [execute, context, execution, result, toolList];
}
