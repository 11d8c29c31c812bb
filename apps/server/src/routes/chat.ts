import { randomUUID } from "node:crypto";
import { z } from "zod";
import { buildPromptMetrics, checkPromptBudget } from "@artifact-refs/budget";
import { ArefError, PromptMetricsSchema, receiptName } from "@artifact-refs/schema";
import { assertSession } from "../auth.js";
import type { AppContext } from "../app-context.js";
import type { ModelMessage } from "@artifact-refs/context";
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
    summary:
      "Resolve the user's message to the executions it means; return the context message to inject (and the model's answer when a provider is configured)",
    tags: ["chat"],
    auth: true,
    body: ChatBodySchema,
    responses: {
      200: { description: "the context and answer", schema: ChatReceiptSchema },
      ...ERROR_RESPONSES,
      503: { description: "the chat provider did not answer" },
    },
    async handler({ body, principal, request }) {
      assertSession(principal, body.session_id);
      const ctx = await kit.chatContext(body.session_id, body.message);
      const messages: ModelMessage[] = [
        { role: "system", content: CHAT_SYSTEM_PROMPT },
        ...(ctx.message ? [ctx.message] : []),
        ...body.history,
        { role: "user", content: body.message },
      ];
      // The turn's prompt, measured and checked by @artifact-refs/budget (fails closed), recorded as the docs/ARCHITECTURE.md §references metrics event.
      const hot = await kit.hotState(body.session_id);
      const check = checkPromptBudget(
        {
          messages: messages.map((m) => ({ role: m.role, content: m.content })),
          ...(hot ? { hot_state: hot.state } : {}),
        },
        { config: kit.budget },
      );
      const referenced =
        ctx.referencedRecords ??
        (ctx.referenced.length === 0 ? [] : await kit.executions.list(body.session_id)).filter((e) =>
          ctx.referenced.includes(e.execution_id),
        );
      const event = buildPromptMetrics(
        {
          session: body.session_id,
          turn: ctx.turn,
          hs_tokens: hot?.tokens ?? 0,
          hs_bytes: hot?.bytes ?? 0,
          hs_truncated: hot?.truncated ?? false,
          artifacts: hot?.state.artifact_index?.length ?? 0,
          artifact_types: [...new Set((hot?.state.artifact_index ?? []).map((e) => e.type))],
          sys_chars: messages.filter((m) => m.role === "system").reduce((n, m) => n + m.content.length, 0),
          user_chars: messages.filter((m) => m.role !== "system").reduce((n, m) => n + m.content.length, 0),
          est_tokens: check.measurements.promptTokens ?? 0,
          ref_files: referenced.filter((e) => typeof e.tool_args.path === "string").length,
          violations: check.violations,
        },
        kit.budget,
      );
      await kit.metrics.record(event);
      if (!event.budget_ok) telemetry.budgetViolations.inc(event.budget_violations);
      let response: string | null = null;
      const messageId = randomUUID();
      try {
        // Fails closed: an over-budget prompt never reaches the provider (the turn is still recorded).
        if (provider && !event.budget_ok) {
          throw new ArefError(
            "BUDGET_EXCEEDED",
            `the prompt is over the budget (${event.est_tokens} estimated tokens); the provider was not called`,
            {
              hint: "send a shorter history or message, or raise the prompt budget",
            },
          );
        }
        if (provider) {
          const controller = new AbortController();
          request.raw.once("close", () => controller.abort());
          response = await provider.complete(messages, controller.signal);
        }
      } finally {
        // The turn is recorded in the store even when the provider fails (its answer is then null).
        await kit.chatTurns.record(body.session_id, {
          turn: ctx.turn,
          message_id: messageId,
          message: body.message,
          referenced_executions: ctx.referenced,
          ambiguous: ctx.ambiguous,
          context_chars: ctx.message?.content.length ?? 0,
          response,
          provider: provider?.name ?? null,
        });
      }
      return {
        schema: receiptName("chat"),
        session_id: body.session_id,
        message_id: messageId,
        context_message: ctx.message,
        referenced_executions: ctx.referenced,
        candidates: ctx.candidates.map((c) => ({ execution_id: c.id, score: c.score, reasons: c.reasons })),
        ambiguous: ctx.ambiguous,
        response,
        provider: provider?.name ?? null,
        metrics: event,
      };
    },
  });

  return [chat];
}
