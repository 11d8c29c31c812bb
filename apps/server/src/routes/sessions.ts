import { z } from "zod";
import {
  HotStateSchema,
  ListReceiptSchema,
  MIN_PREFIX_LENGTH,
  PromptMetricsSchema,
  receiptName,
  toHandle,
  toShortRef,
  type ListItem,
  type ListReceipt,
} from "@artifact-refs/schema";
import { assertSession, canSee } from "../auth.js";
import type { AppContext } from "../app-context.js";
import { defineRoute, type RouteDef } from "../route.js";
import { ListQuerySchema, SessionParams } from "../schemas.js";
import { ChatTurnSchema } from "../kit/records.js";
import { ERROR_RESPONSES, PageQuerySchema } from "./common.js";

export const SessionsReceiptSchema = z.object({
  schema: z.literal(receiptName("sessions")),
  count: z.number().int(),
  sessions: z.array(z.object({ session_id: z.string() })),
});

export const SessionMetricsReceiptSchema = z.object({
  schema: z.literal(receiptName("session-metrics")),
  session: z.string(),
  budget: z.object({ prompt_tokens: z.number().int() }),
  turns: z.array(PromptMetricsSchema),
});

export const ChatTurnsReceiptSchema = z.object({
  schema: z.literal(receiptName("chat-turns")),
  session: z.string(),
  turns: z.array(ChatTurnSchema),
  before: z.string().optional(),
  skipped: z.number().int(),
});

export const HotStateReceiptSchema = z.object({
  schema: z.literal(receiptName("hot-state")),
  session: z.string(),
  hot_state: HotStateSchema.nullable(),
  tokens: z.number().int().optional(),
});

/** Shortest unique prefix length (≥ 12) of each id among `ids`. */
export function uniquePrefixLengths(ids: string[]): Map<string, number> {
  const sorted = [...new Set(ids)].sort();
  const out = new Map<string, number>();
  const common = (a: string, b: string) => {
    let n = 0;
    while (n < a.length && a[n] === b[n]) n++;
    return n;
  };
  sorted.forEach((id, i) => {
    const before = i > 0 ? common(id, sorted[i - 1]!) : 0;
    const after = i < sorted.length - 1 ? common(id, sorted[i + 1]!) : 0;
    out.set(id, Math.max(MIN_PREFIX_LENGTH, Math.max(before, after) + 1));
  });
  return out;
}

export function sessionRoutes(app: AppContext): RouteDef<any, any, any>[] {
  const { store, kit } = app;

  const list = defineRoute({
    method: "GET",
    url: "/api/sessions",
    summary: "Sessions this token may see (all of them for the admin)",
    tags: ["sessions"],
    auth: true,
    responses: { 200: { description: "the sessions", schema: SessionsReceiptSchema }, ...ERROR_RESPONSES },
    async handler({ principal }) {
      const ids = new Set(await store.listSessions());
      for (const id of (await kit.executions.sessions?.()) ?? []) ids.add(id);
      const visible = [...ids].filter((id) => canSee(principal, id)).sort();
      return {
        schema: receiptName("sessions"),
        count: visible.length,
        sessions: visible.map((session_id) => ({ session_id })),
      };
    },
  });

  const artifacts = defineRoute({
    method: "GET",
    url: "/api/sessions/:id/artifacts",
    summary: "A session's references, oldest first",
    tags: ["sessions"],
    auth: true,
    params: SessionParams,
    query: ListQuerySchema,
    responses: { 200: { description: "the references", schema: ListReceiptSchema }, ...ERROR_RESPONSES },
    async handler({ params, query, principal }) {
      assertSession(principal, params.id);
      // Records of the references this listing shows live, read before under the same reference, are not read
      // again (ArtifactStore.listArtifacts): an unchanged session lists with its listing alone.
      const listed = await store.listArtifacts(params.id, { includeExpired: query.include_expired === true });
      const lengths = uniquePrefixLengths(listed.map((l) => l.reference.artifact_id));
      const items = listed.map(({ reference: ref, record: found }): ListItem => {
        // A damaged record or blob lists without size or summary instead of failing the listing (verify reports it).
        const record = found ?? { size_bytes: 0, label: undefined, summary: undefined };
        const label = ref.label ?? record.label;
        return {
          handle: toHandle(ref.artifact_id),
          short_ref: toShortRef(ref.artifact_id, lengths.get(ref.artifact_id)),
          artifact_id: ref.artifact_id,
          type: ref.type,
          size_bytes: record.size_bytes,
          created_at: ref.created_at,
          ...(label === undefined ? {} : { label }),
          ...(record.summary === undefined ? {} : { summary: record.summary }),
          session: params.id,
          ...(ref.expires_at === undefined ? {} : { expires_at: ref.expires_at }),
        };
      });
      const receipt: ListReceipt = { schema: receiptName("list"), session: params.id, count: items.length, items };
      return receipt;
    },
  });

  const metrics = defineRoute({
    method: "GET",
    url: "/api/sessions/:id/metrics",
    summary: "The session's per-turn prompt metrics (docs/ARCHITECTURE.md §references) and its prompt budget",
    tags: ["sessions"],
    auth: true,
    params: SessionParams,
    responses: {
      200: { description: "per-turn metrics, oldest first", schema: SessionMetricsReceiptSchema },
      ...ERROR_RESPONSES,
    },
    async handler({ params, principal }) {
      assertSession(principal, params.id);
      return {
        schema: receiptName("session-metrics"),
        session: params.id,
        budget: { prompt_tokens: kit.budget.maxPromptTokens },
        turns: await kit.metrics.list(params.id),
      };
    },
  });

  const chatTurns = defineRoute({
    method: "GET",
    url: "/api/sessions/:id/chat",
    summary:
      "The session's chat turns (question, referenced executions, answer): the newest page, oldest first; `before` pages back",
    tags: ["sessions", "chat"],
    auth: true,
    params: SessionParams,
    query: PageQuerySchema,
    responses: { 200: { description: "the turns", schema: ChatTurnsReceiptSchema }, ...ERROR_RESPONSES },
    async handler({ params, query, principal }) {
      assertSession(principal, params.id);
      const page = await kit.chatTurns.page(params.id, {
        limit: query.limit ?? 100,
        ...(query.before ? { before: query.before } : {}),
      });
      return { schema: receiptName("chat-turns"), session: params.id, ...page };
    },
  });

  const hotState = defineRoute({
    method: "GET",
    url: "/api/sessions/:id/hot-state",
    summary: "The session's hot state (null when it has none)",
    tags: ["sessions"],
    auth: true,
    params: SessionParams,
    responses: { 200: { description: "the hot state", schema: HotStateReceiptSchema }, ...ERROR_RESPONSES },
    async handler({ params, principal }) {
      assertSession(principal, params.id);
      const found = await kit.hotState(params.id);
      return {
        schema: receiptName("hot-state"),
        session: params.id,
        hot_state: found?.state ?? null,
        ...(found?.tokens === undefined ? {} : { tokens: found.tokens }),
      };
    },
  });

  return [list, artifacts, metrics, chatTurns, hotState];
}
