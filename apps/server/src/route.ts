import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { ArefError, parseWith } from "@artifact-refs/schema";
import type { Authenticator, Principal } from "./auth.js";
import { JSON_MEDIA_TYPE } from "./body-parsing.js";
import type { RouteMeter } from "./telemetry.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The metrics of the route that took the request (set by registerRoute's handler). */
    meter: RouteMeter | null;
    /** Who is calling (set before the body is read, on routes that need auth). */
    principal: Principal | null;
  }
}

export type HttpMethod = "GET" | "HEAD" | "POST" | "DELETE";

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: Principal;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One HTTP route: its zod schemas validate every input and also generate the OpenAPI
 * document, so the two never drift. `body: "raw"` takes any content type as bytes.
 */
export interface RouteDef<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod;
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  /** False for routes anyone may call (health, the UI, the OpenAPI document). */
  auth: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * Accepts raw bytes of any content type besides JSON (the stash route). "stream": the handler
   * gets the request stream itself (not buffered, no bodyLimit: the handler enforces its own cap).
   */
  rawBody?: boolean | "stream";
  /** With rawBody: the JSON envelope also accepted (documented in OpenAPI; validated by the handler). */
  jsonEnvelope?: z.ZodType;
  responses: Record<number, ResponseDoc>;
  /** Per-route rate limit override (requests per window). */
  rateLimit?: { max: number };
  handler: (ctx: RouteContext<P, Q, B>) => Promise<unknown>;
}

export function defineRoute<P, Q, B>(def: RouteDef<P, Q, B>): RouteDef<P, Q, B> {
  return def;
}

export function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && JSON_MEDIA_TYPE.test(header.trim());
}

/**
 * Parsed query strings, per route: parsing is a pure function of the raw query string, so
 * repeated queries (a client paging through the same selector) skip zod. Bounded; cleared when full.
 */
class QueryMemo {
  readonly #entries = new Map<string, unknown>();
  constructor(readonly max = 512) {}
  parse(schema: z.ZodType, raw: string, value: unknown, what = "query parameters"): unknown {
    const hit = this.#entries.get(raw);
    if (hit !== undefined) return hit;
    const parsed = Object.freeze(parseWith(schema, value, what));
    if (this.#entries.size >= this.max) this.#entries.clear();
    this.#entries.set(raw, parsed);
    return parsed;
  }
}

/** Registers a route on Fastify: authenticates, validates params, query and body with zod, runs the handler. */
export function registerRoute(
  app: FastifyInstance,
  auth: Authenticator,
  def: RouteDef<any, any, any>,
  meter: RouteMeter,
  onAuthenticated?: (request: FastifyRequest) => void,
): void {
  if (def.rawBody === "stream") {
    // Its own encapsulated context: raw bodies reach the handler as the request stream; JSON
    // (the envelope) is still parsed under the server's bodyLimit.
    void app.register(async (child) => {
      const jsonParser = child.getDefaultJsonParser("error", "error");
      child.removeAllContentTypeParsers();
      child.addContentTypeParser(
        "application/json",
        { parseAs: "string", bodyLimit: app.initialConfig.bodyLimit },
        jsonParser,
      );
      child.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
      registerRoute(child, auth, { ...def, rawBody: true }, meter, onAuthenticated);
    });
    return;
  }
  const queries = new QueryMemo();
  const paths = new QueryMemo();
  app.route({
    method: def.method,
    url: def.url,
    exposeHeadRoute: false,
    ...(def.rateLimit ? { config: { rateLimit: def.rateLimit } } : {}),
    // Authenticate before the body is read (after the rate limit's onRequest hook): a caller without a valid
    // token never gets to send (or hold open) a body.
    preParsing: (request, reply, payload, done) => {
      request.meter = meter;
      if (!def.auth) return done(null, payload);
      try {
        request.principal = auth.authenticate(request.headers.authorization);
        onAuthenticated?.(request);
        done(null, payload);
      } catch (error) {
        // The body (if any) is left unread: close the connection after the 401 instead of draining it.
        closeAfterReply(request, reply);
        done(error as Error);
      }
    },
    handler: async (request, reply) => {
      request.meter = meter;
      const principal: Principal = def.auth ? request.principal! : { kind: "admin" };
      const at = request.url.indexOf("?");
      const params = def.params
        ? paths.parse(def.params, at === -1 ? request.url : request.url.slice(0, at), request.params, "path parameters")
        : {};
      const query = def.query
        ? queries.parse(def.query, at === -1 ? "" : request.url.slice(at + 1), request.query ?? {})
        : {};
      let body: unknown;
      if (def.body !== undefined) {
        if (!isJsonContentType(request.headers["content-type"])) {
          throw new ArefError(
            "UNSUPPORTED",
            `${def.method} ${def.url} takes a JSON body (Content-Type: application/json)`,
            {
              hint: "send the body as JSON with Content-Type: application/json",
            },
          );
        }
        body = parseWith(def.body, request.body, "request body");
      } else if (def.rawBody) {
        body = request.body;
      }
      return def.handler({ params, query, body, principal, request, reply });
    },
  });
}

/**
 * Answers with `Connection: close` and closes the socket once the answer is out, without reading
 * the request body: node would otherwise wait for the rest of a body that a slow or hostile
 * client never sends, holding the connection open.
 */
export function closeAfterReply(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header("connection", "close");
  const socket = request.raw.socket;
  reply.raw.once("finish", () => {
    socket.end();
    setTimeout(() => socket.destroy(), 1_000).unref();
  });
}
