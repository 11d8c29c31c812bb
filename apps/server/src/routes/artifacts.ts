import { applySelectorToChunks } from "@artifact-refs/resolve";
import { z } from "zod";
import {
  ArefError,
  FetchReceiptSchema,
  ListReceiptSchema,
  RmReceiptSchema,
  StashReceiptSchema,
  parseWith,
  receiptName,
  toHandle,
  type ArtifactId,
  type FetchReceipt,
  type Selector,
  type StashReceipt,
} from "@artifact-refs/schema";
import { assertSession, requireSessionFor } from "../auth.js";
import type { AppContext } from "../app-context.js";
import { defineRoute, isJsonContentType, type RouteDef } from "../route.js";
import {
  FetchQuerySchema,
  RefParams,
  SessionRefParams,
  StashJsonBodySchema,
  SELECTOR_PARAMS_HINT,
  StashQuerySchema,
  selectorOf,
} from "../schemas.js";
import { ERROR_RESPONSES } from "./common.js";
import { SERVER_JSONPATH_WORK_BUDGET } from "../kit/index.js";
import { SelectionCache } from "../selection-cache.js";
import type { OpenedArtifact } from "@artifact-refs/store";
import { textOf } from "@artifact-refs/store/internal";

export function artifactRoutes(app: AppContext): RouteDef<any, any, any>[] {
  const { store, kit } = app;
  const selectors = new WeakMap<object, { selector: Selector; key: string }>(); // parsed (frozen, memoized) query → selector

  const stash = defineRoute({
    method: "POST",
    url: "/api/artifacts",
    summary: "Stash content (raw body, or a JSON envelope)",
    description:
      "Raw body: any Content-Type except JSON; options in the query (session, label, type, mime, ttl_ms). " +
      "JSON body (application/json): the envelope { content, encoding?, session?, label?, type?, mime?, summary?, ttl_ms? }. " +
      "To store a JSON document as-is, send it as application/octet-stream with ?mime=application/json. " +
      "Raw bodies are streamed into the store (chunked over 512 KiB) up to the store's per-artifact cap; over it, 413 naming the cap, and nothing is stored. JSON envelopes are limited by the server's bodyLimit.",
    tags: ["artifacts"],
    auth: true,
    query: StashQuerySchema,
    rawBody: "stream",
    jsonEnvelope: StashJsonBodySchema,
    responses: { 201: { description: "stored", schema: StashReceiptSchema }, ...ERROR_RESPONSES },
    async handler({ query, principal, request, reply }) {
      let bytes: Uint8Array | AsyncIterable<Uint8Array>;
      let opts: z.infer<typeof StashQuerySchema> & { summary?: string };
      if (isJsonContentType(request.headers["content-type"])) {
        if (Object.keys(query).length > 0) {
          throw new ArefError("INVALID_INPUT", "with a JSON envelope, give the options in the body, not the query", {
            hint: "move session, label, type, mime and ttl_ms into the JSON body",
          });
        }
        const body = parseWith(StashJsonBodySchema, request.body, "stash envelope");
        if (body.encoding === "base64" && !/^[A-Za-z0-9+/]*={0,2}$/.test(body.content)) {
          throw new ArefError("INVALID_INPUT", "content is not valid base64", {
            hint: "encode the bytes with standard base64, or send encoding=utf-8",
          });
        }
        bytes = body.encoding === "base64" ? Buffer.from(body.content, "base64") : Buffer.from(body.content, "utf8");
        const { content: _content, encoding: _encoding, ...rest } = body;
        opts = rest;
      } else {
        const raw = request.body;
        const declared = Number(request.headers["content-length"]);
        if (Number.isFinite(declared) && declared > store.maxBytes) {
          throw new ArefError(
            "TOO_LARGE",
            `the body is ${declared} bytes, over the store's cap of ${store.maxBytes} bytes per artifact`,
            {
              hint: "send a smaller body, or raise the store's cap",
              details: { size_bytes: declared, max_bytes: store.maxBytes },
            },
          );
        }
        bytes = Buffer.isBuffer(raw) ? raw : isAsyncIterable(raw) ? nonEmpty(raw) : Buffer.alloc(0);
        opts = query;
      }
      if (bytes instanceof Uint8Array && bytes.byteLength === 0) throw emptyBody();
      const session = requireSessionFor(principal, opts.session, "POST /api/artifacts");
      const putOptions = {
        ...(session === undefined ? {} : { session }),
        ...(opts.label === undefined ? {} : { label: opts.label }),
        ...(opts.type === undefined ? {} : { type: opts.type }),
        ...(opts.mime === undefined ? {} : { mime: opts.mime }),
        ...(opts.summary === undefined ? {} : { summary: opts.summary }),
        ...(opts.ttl_ms === undefined ? {} : { ttlMs: opts.ttl_ms }),
        producer: "user" as const,
      };
      const put =
        bytes instanceof Uint8Array ? await store.put(bytes, putOptions) : await store.putStream(bytes, putOptions);
      const receipt: StashReceipt = {
        schema: receiptName("stash"),
        handle: put.handle,
        artifact_id: put.id,
        short_ref: put.shortRef,
        bytes: put.record.size_bytes,
        created_at: put.record.created_at,
        deduped: put.deduped,
        type: put.record.type,
        ...((put.reference?.label ?? put.record.label) ? { label: put.reference?.label ?? put.record.label } : {}),
        ...(put.record.summary === undefined ? {} : { summary: put.record.summary }),
        ...(session === undefined ? {} : { session }),
        ...(put.reference?.expires_at === undefined ? {} : { expires_at: put.reference.expires_at }),
      };
      reply.code(201);
      return receipt;
    },
  });

  const fetch = defineRoute({
    method: "GET",
    url: "/api/artifacts/:ref",
    summary: "Bounded fetch: a selection of an artifact, never more than its cap",
    description:
      `Selector in the query: mode=headtail (the default), grep, range or jsonpath, with its parameters (${SELECTOR_PARAMS_HINT}); maxChars caps the text (default 8000). ` +
      "The answer says what was left out and gives the selector for the next part: send its fields back as the query.",
    tags: ["artifacts"],
    auth: true,
    params: RefParams,
    query: FetchQuerySchema,
    responses: { 200: { description: "the selection", schema: FetchReceiptSchema }, ...ERROR_RESPONSES },
    async handler({ params, query, principal, reply }) {
      const session = requireSessionFor(principal, query.session, "GET /api/artifacts/:ref");
      let memo = selectors.get(query);
      if (memo === undefined) {
        const selector = selectorOf(query);
        selectors.set(query, (memo = { selector, key: SelectionCache.key("", selector) }));
      }
      const { selector } = memo;
      const scope = session === undefined ? {} : { session };
      // Access first: the session must hold a live reference. Expiry and this server's own drops
      // are seen at once; a check at most accessCacheMs old may be reused (see ServerOptions): then
      // a selection already cached costs no request. Cold, the check and the content go out at once
      // (`open`: by short ref the listing, then reference + blob; 3 requests, 2 round trips).
      const access = { session, maxAgeMs: app.accessCacheMs };
      let opened: OpenedArtifact | undefined;
      let id: ArtifactId;
      if (session === undefined) id = (await store.getRecord(params.ref)).artifact_id;
      else {
        const cached = store.cachedReference(session, params.ref, access);
        if (cached !== undefined) id = cached.artifact_id;
        else id = (opened = await store.open(params.ref, access)).id;
      }
      const key = `${id}${memo.key}`;
      // A 12-hex short ref that resolved in this scope is already the shortest unique one.
      const shortRef = /^art:[0-9a-f]{12}$/.test(params.ref) ? params.ref : await store.shortRef(id, scope);
      // The receipt's bytes depend only on (id, selector, short ref): serialized once.
      const bytesKey = `${key}\u0000${shortRef}`;
      let body = app.receipts.get(bytesKey);
      if (body === undefined) {
        // A chunked artifact (over 512 KiB): read only the chunks this selection needs.
        const selection = await app.selections.getOrSelect(
          key,
          async () => {
            // The content read with the access check, else (warm check, or no session) the content alone.
            const content = opened ?? (await store.open(id));
            return content.chunks ?? textOf(content.bytes!, id);
          },
          (source) =>
            typeof source === "string"
              ? app.selectionPool.run(source, selector, () => kit.select(source, selector))
              : applySelectorToChunks(source, selector, { jsonPathWorkBudget: SERVER_JSONPATH_WORK_BUDGET }),
        );
        const receipt: FetchReceipt = {
          schema: receiptName("fetch"),
          handle: toHandle(id),
          short_ref: shortRef,
          ...selection,
        };
        app.receipts.set(bytesKey, (body = Buffer.from(JSON.stringify(receipt))));
      }
      reply.type("application/json; charset=utf-8");
      return body;
    },
  });

  const head = defineRoute({
    method: "HEAD",
    url: "/api/artifacts/:ref",
    summary: "Does the artifact exist (for this session)? Its metadata in headers",
    description: "Headers: X-Artifact-Id, X-Artifact-Size, X-Artifact-Type, X-Artifact-Mime, X-Short-Ref, ETag.",
    tags: ["artifacts"],
    auth: true,
    params: RefParams,
    query: z.object({ session: FetchQuerySchema.shape.session }).strict(),
    responses: {
      200: { description: "exists" },
      401: { description: "no or unknown token" },
      403: { description: "not your session" },
      404: { description: "no such artifact" },
    },
    async handler({ params, query, principal, reply }) {
      const session = requireSessionFor(principal, query.session, "HEAD /api/artifacts/:ref");
      const scope = session === undefined ? {} : { session };
      const record = await store.getRecord(params.ref, scope);
      reply
        .header("x-artifact-id", record.artifact_id)
        .header("x-artifact-size", String(record.size_bytes))
        .header("x-artifact-type", record.type)
        .header("x-short-ref", await store.shortRef(record.artifact_id, scope))
        .header("etag", `"${record.artifact_id}"`)
        .header("x-artifact-mime", record.mime ?? "application/octet-stream");
      reply.code(200);
      return "";
    },
  });

  const drop = defineRoute({
    method: "DELETE",
    url: "/api/sessions/:id/artifacts/:ref",
    summary: "Drop a session's reference (the blob stays until gc finds it unreferenced)",
    tags: ["sessions", "artifacts"],
    auth: true,
    params: SessionRefParams,
    responses: { 200: { description: "removed", schema: RmReceiptSchema }, ...ERROR_RESPONSES },
    async handler({ params, principal }) {
      assertSession(principal, params.id);
      const id = await store.resolve(params.ref, { session: params.id });
      const removed = await store.removeReference(params.id, id);
      if (!removed) throw new ArefError("NOT_FOUND", `session ${params.id} holds no reference to ${params.ref}`);
      return {
        schema: receiptName("rm"),
        artifact_id: id,
        session: params.id,
        references_removed: 1,
        blob_removed: false,
      };
    },
  });

  return [stash, fetch, head, drop];
}

export { ListReceiptSchema };

function emptyBody(): ArefError {
  return new ArefError("INVALID_INPUT", "the body is empty: nothing to stash", {
    hint: "send the content as the request body",
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function"
  );
}

/** The request stream, refusing (before anything is stored) a body that ends without a byte. */
async function* nonEmpty(stream: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let any = false;
  for await (const piece of stream) {
    if (piece.byteLength > 0) any = true;
    yield piece;
  }
  if (!any) throw emptyBody();
}
