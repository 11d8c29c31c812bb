import { randomUUID } from "node:crypto";
import { z } from "zod";
import { PromptMetricsSchema, receiptName, type PromptMetrics } from "@artifact-refs/schema";
import { assertSession } from "../auth.js";
import type { AppContext } from "../app-context.js";
import type { ChatMessage } from "../provider.js";
import { defineRoute, type RouteDef } from "../route.js";
import { ChatBodySchema } from "../schemas.js";
import { ERROR_RESPONSES } from "./common.js";

export const CHAT_SYSTEM_PROMPT =
  "You are a helpful assistant. The user runs tools through artifacts; their results are given in the Artifact Context message. Answer from them.";

export const ChatReceiptSchema = z.object({
  schema: z.literal(receiptName("chat")),
  session_id: z.string(),
  message_id: z.string(),
  context_message: z.object({ role: z.literal("system"), content: z.string() }).nullable(),
  referenced_executions: z.array(z.string()),
  candidates: z.array(z.object({ execution_id: z.string(), score: z.number(), reasons: z.array(z.string()) })),
  ambiguous: z.boolean(),
  response: z.string().nullable().describe("the model's answer, when a provider is configured"),
  provider: z.string().nullable(),
  metrics: PromptMetricsSchema,
});

export function chatRoutes(app: AppContext): RouteDef<any, any, any>[] {
  const { kit, provider, telemetry } = app;

  const chat = defineRoute({
    method: "POST",
    url: "/api/chat",
    summary: "Resolve the user's message to the executions it means; return the context message to inject (and the model's answer when a provider is configured)",
    tags: ["chat"],
    auth: true,
    body: ChatBodySchema,
    responses: { 200: { description: "the context and answer", schema: ChatReceiptSchema }, ...ERROR_RESPONSES, 503: { description: "the chat provider did not answer" } },
    async handler({ body, principal, request }) {
      assertSession(principal, body.session_id);
      const executions = await kit.executions.list(body.session_id);
      const ctx = await kit.chatContext(body.session_id, body.message, executions);
      const messages: ChatMessage[] = [
        { role: "system", content: CHAT_SYSTEM_PROMPT },
        ...(ctx.message ? [ctx.message] : []),
        ...body.history,
        { role: "user", content: body.message },
      ];
      const sysChars = messages.filter((m) => m.role === "system").reduce((n, m) => n + m.content.length, 0);
      const userChars = messages.filter((m) => m.role !== "system").reduce((n, m) => n + m.content.length, 0);
      let estTokens: number | null;
      try {
        estTokens = messages.reduce((n, m) => n + kit.countTokens(m.content) + 4, 0);
      } catch {
        estTokens = null; // fail closed: an uncounted prompt violates the budget
      }
      const previous = await kit.metrics.list(body.session_id);
      const hot = await kit.hotState(body.session_id);
      const hsJson = hot ? JSON.stringify(hot.state) : "";
      const referenced = executions.filter((e) => ctx.referenced.includes(e.execution_id));
      const ok = estTokens !== null && estTokens <= kit.promptBudget;
      const event: PromptMetrics = {
        type: "prompt_metrics",
        ts: new Date().toISOString(),
        session: body.session_id,
        turn: previous.length + 1,
        hs_tokens: hot?.tokens ?? 0,
        hs_bytes: Buffer.byteLength(hsJson),
        hs_truncated: false,
        artifacts: referenced.length,
        artifact_types: [...new Set(referenced.map((e) => e.tool_name))],
        sys_chars: sysChars,
        user_chars: userChars,
        est_tokens: estTokens ?? 0,
        ref_files: referenced.filter((e) => typeof e.tool_args.path === "string").length,
        budget_violations: ok ? 0 : 1,
        budget_ok: ok,
        ...(ok
          ? {}
          : { violations: [{ budget: "prompt_tokens", limit: kit.promptBudget, actual: estTokens, message: estTokens === null ? "the prompt could not be counted" : `prompt is ${estTokens} tokens, over ${kit.promptBudget}` }] }),
      };
      await kit.metrics.record(event);
      if (!ok) telemetry.budgetViolations.inc({ session: body.session_id });
      let response: string | null = null;
      if (provider) {
        const controller = new AbortController();
        request.raw.once("close", () => controller.abort());
        response = await provider.complete(messages, controller.signal);
      }
      return {
        schema: receiptName("chat"),
        session_id: body.session_id,
        message_id: randomUUID(),
        context_message: ctx.message,
        referenced_executions: ctx.referenced,
        candidates: ctx.candidates,
        ambiguous: ctx.ambiguous,
        response,
        provider: provider?.name ?? null,
        metrics: event,
      };
    },
  });

  return [chat];
}
