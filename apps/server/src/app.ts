import { createHash, randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import rateLimit from "@fastify/rate-limit";
import { ArefError, isArefError, localRequestProblem } from "@artifact-refs/schema";
import { ArtifactStore } from "@artifact-refs/store";
import { openStore } from "@artifact-refs/store-spec";
import { Authenticator, TokensSchema } from "./auth.js";
import type { AppContext } from "./app-context.js";
import { isOperatorError, redactOperatorError, toHttpError, writeClientError } from "./errors.js";
import { createKit, SERVER_JSONPATH_WORK_BUDGET } from "./kit/index.js";
import { openApiDocument } from "./openapi.js";
import { registerJsonParser } from "./body-parsing.js";
import { ConnectionGuard } from "./connection-guard.js";
import {
  DEFAULT_ACCESS_CACHE_MS,
  DEFAULT_BODY_LIMIT,
  DEFAULT_MAX_UNAUTHENTICATED,
  DEFAULT_RATE_LIMIT,
  serverTimeouts,
  type ServerOptions,
} from "./options.js";
import { closeAfterReply, registerRoute, type RouteDef } from "./route.js";
import { artifactRoutes } from "./routes/artifacts.js";
import { chatRoutes } from "./routes/chat.js";
import { executeRoutes } from "./routes/execute.js";
import { sessionRoutes } from "./routes/sessions.js";
import { systemRoutes } from "./routes/system.js";
import { findWebRoot, serveWeb } from "./static.js";
import { ByteCache, SelectionCache } from "./selection-cache.js";
import { SelectionPool } from "./selection-pool.js";
import { Telemetry } from "./telemetry.js";
import { ToolRegistry, Workspace, builtinTools } from "@artifact-refs/tools";
import { parseWith } from "@artifact-refs/schema";

export const SERVER_VERSION = "0.1.0";

/** "minute", "10 seconds", "2 minutes": the configured rate-limit window (not the time left in it). */
function windowText(ms: number): string {
  const [n, unit] =
    ms % 3_600_000 === 0
      ? [ms / 3_600_000, "hour"]
      : ms % 60_000 === 0
        ? [ms / 60_000, "minute"]
        : ms % 1000 === 0
          ? [ms / 1000, "second"]
          : [ms, "millisecond"];
  return n === 1 ? unit : `${n} ${unit}s`;
}

export interface ArefServer {
  /** The Fastify instance (inject requests, add routes). */
  app: FastifyInstance;
  store: ArtifactStore;
  tools: ToolRegistry;
  /** The OpenAPI document of every route. */
  openapi: Record<string, unknown>;
  /** Stops accepting connections, finishes in-flight requests (writes included), closes the store. */
  close(): Promise<void>;
}

/** Builds the server (routes, auth, limits, UI) without listening. */
export async function createServer(options: ServerOptions): Promise<ArefServer> {
  const store = typeof options.store === "string" ? await openStore(options.store) : options.store;
  if (!(store instanceof ArtifactStore) && typeof (store as ArtifactStore)?.put !== "function") {
    throw new ArefError("CONFIG_INVALID", "options.store must be an ArtifactStore or a store spec string");
  }
  const tokens =
    options.tokens === undefined ? undefined : parseWith(TokensSchema, options.tokens, "tokens", "CONFIG_INVALID");
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (!Number.isInteger(bodyLimit) || bodyLimit < 1)
    throw new ArefError("CONFIG_INVALID", `bodyLimit must be a positive integer, got ${String(bodyLimit)}`);
  const accessCacheMs = options.accessCacheMs ?? DEFAULT_ACCESS_CACHE_MS;
  if (!Number.isFinite(accessCacheMs) || accessCacheMs < 0)
    throw new ArefError("CONFIG_INVALID", `accessCacheMs must be a number ≥ 0, got ${String(accessCacheMs)}`);

  const tools = new ToolRegistry();
  if (options.workspace !== undefined)
    for (const tool of builtinTools(await Workspace.open(options.workspace))) tools.register(tool);
  for (const tool of options.tools ?? []) tools.register(tool);

  const ctx: AppContext = {
    store,
    auth: new Authenticator(tokens),
    tools,
    kit: createKit(store, options.kit, options.context, options.preload),
    telemetry: new Telemetry(store),
    provider: options.provider,
    bodyLimit,
    selections: new SelectionCache(options.selectionCacheChars),
    // A replaced kit.select is the caller's selection: it stays on the event loop.
    selectionPool: new SelectionPool(SERVER_JSONPATH_WORK_BUDGET, {
      ...options.selectionPool,
      ...(options.kit?.select ? { minChars: Number.POSITIVE_INFINITY } : {}),
    }),
    receipts: new ByteCache(options.selectionCacheChars),
    accessCacheMs,
  };

  const timeouts = serverTimeouts(options);
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit,
    // A request (headers and body) must arrive within requestTimeoutMs; an idle socket is closed after idleTimeoutMs.
    requestTimeout: timeouts.requestTimeoutMs,
    connectionTimeout: timeouts.idleTimeoutMs,
    http: { headersTimeout: timeouts.headersTimeoutMs, connectionsCheckingInterval: timeouts.checkEveryMs },
    return503OnClosing: true,
    routerOptions: {
      maxParamLength: 500,
      ignoreTrailingSlash: false,
    },
    // Errors node answers before a request exists (408 timeout, 431 headers too large, 400 bad framing) get an error receipt too.
    clientErrorHandler: (error, socket) => writeClientError(error, socket),
    frameworkErrors: (error, _req, reply) => {
      const { status, receipt } = toHttpError(
        Object.assign(error, { statusCode: (error as { statusCode?: number }).statusCode ?? 400 }),
      );
      void (reply as unknown as { code(n: number): { send(b: unknown): void } }).code(status).send(receipt);
    },
  });

  app.addHook("onClose", async () => ctx.selectionPool.close());
  app.removeContentTypeParser("text/plain");
  registerJsonParser(app);
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  app.setErrorHandler((error, request, reply) => {
    if (isOperatorError(error)) {
      // Paths, errno and foreign hashes stay in the server log; the client gets the code, a fixed message and an id.
      const errorId = randomUUID().slice(0, 8);
      request.log.error({ err: error, errorId }, "request failed");
      console.error(
        `[aref-server] error ${errorId} on ${request.method} ${request.url.split("?")[0]}: ${error.code}: ${error.message}`,
        error.details ?? "",
      );
      const { status, receipt } = toHttpError(redactOperatorError(error, errorId));
      return reply.code(status).send(receipt);
    }
    const { status, receipt } = toHttpError(error);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    if (status >= 500 && !isArefError(error)) console.error(error);
    return reply.code(status).send(receipt);
  });
  const notFound = (request: { method: string; url: string }) =>
    toHttpError(
      new ArefError("NOT_FOUND", `no route ${request.method} ${request.url.split("?")[0]!.slice(0, 200)}`, {
        hint: "see GET /openapi.json",
      }),
    ).receipt;
  app.setNotFoundHandler((request, reply) => reply.code(404).send(notFound(request)));

  // Without tokens (loopback development), refuse DNS-rebinding requests: a foreign Host or Origin.
  if (!ctx.auth.enabled) {
    const allowedHosts = options.allowedHosts ?? [];
    app.addHook("onRequest", (request, reply, done) => {
      const problem = localRequestProblem({ host: request.headers.host, origin: request.headers.origin }, allowedHosts);
      if (problem === undefined) return done();
      const error = new ArefError("FORBIDDEN", `${problem}; a server without tokens only answers local clients`, {
        hint: "open it as http://127.0.0.1:<port>, or start it with tokens (or allowedHosts) to serve other names",
      });
      void reply.code(403).send(toHttpError(error).receipt);
    });
  }

  // Our routes set request.meter first thing; requests that never reached one (404, framework errors) look it up.
  app.decorateRequest("meter", null);
  app.decorateRequest("principal", null);
  // Unmatched routes answer 404 before any body is read.
  app.addHook("onRequest", (request, reply, done) => {
    if (!request.is404) return done();
    closeAfterReply(request, reply);
    void reply.code(404).send(notFound(request));
  });
  const guard = ctx.auth.enabled
    ? new ConnectionGuard(options.maxUnauthenticatedConnections ?? DEFAULT_MAX_UNAUTHENTICATED)
    : undefined;
  guard?.attach(app.server);
  app.addHook("onResponse", (request, reply, done) => {
    const meter = request.meter ?? ctx.telemetry.meter(request.method, request.routeOptions.url ?? "unmatched");
    meter.observe(reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  let shuttingDown = false;
  app.addHook("onSend", (_request, reply, payload, done) => {
    reply.header("x-content-type-options", "nosniff");
    // During a graceful shutdown, answer in-flight requests and close their keep-alive sockets.
    if (shuttingDown) reply.header("connection", "close");
    done(null, payload);
  });

  const limit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  if (limit !== false) {
    await app.register(rateLimit, {
      global: true,
      max: limit.max,
      timeWindow: limit.timeWindowMs ?? DEFAULT_RATE_LIMIT.timeWindowMs,
      allowList: (req) => req.url === "/healthz",
      // Per token once the token was verified; per IP otherwise, so made-up tokens cannot each get their own budget.
      keyGenerator: (req) => {
        const header = req.headers.authorization;
        if (!ctx.auth.enabled || header === undefined) return `ip:${req.ip}`;
        try {
          ctx.auth.authenticate(header); // remembered after the first time: cheap
          return `t:${createHash("sha256").update(header).digest("hex").slice(0, 32)}`;
        } catch {
          return `ip:${req.ip}`;
        }
      },
      errorResponseBuilder: (_req, context) =>
        new ArefError(
          "RATE_LIMITED",
          `rate limit: ${context.max} request${context.max === 1 ? "" : "s"} per ${windowText(limit.timeWindowMs ?? DEFAULT_RATE_LIMIT.timeWindowMs)}`,
          {
            hint: `retry after ${Math.max(1, Math.ceil(context.ttl / 1000))} s`,
          },
        ),
    });
  }

  const routes: RouteDef<any, any, any>[] = [];
  let doc: Record<string, unknown> = {};
  routes.push(
    ...artifactRoutes(ctx),
    ...sessionRoutes(ctx),
    ...executeRoutes(ctx),
    ...chatRoutes(ctx),
    ...systemRoutes(ctx, () => doc),
  );
  doc = openApiDocument(routes, { title: "artifact-refs server", version: SERVER_VERSION });
  const trust =
    guard === undefined
      ? undefined
      : (request: { raw: { socket: import("node:net").Socket } }) => guard.trust(request.raw.socket);
  for (const route of routes) registerRoute(app, ctx.auth, route, ctx.telemetry.meter(route.method, route.url), trust);

  const webRoot = options.ui === false ? undefined : findWebRoot();
  if (webRoot) serveWeb(app, webRoot);
  else if (options.ui === true)
    throw new ArefError("CONFIG_INVALID", "the web UI is not built", {
      hint: "run `pnpm --filter @artifact-refs/server build`",
    });

  await app.ready();
  let closing: Promise<void> | undefined;
  return {
    app,
    store,
    tools,
    openapi: doc,
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        // In-flight requests (writes included) finish; sockets still open after the grace period are cut.
        const force = setTimeout(() => app.server.closeAllConnections(), options.shutdownGraceMs ?? 10_000);
        force.unref();
        await app.close();
        clearTimeout(force);
        await store.close();
      })();
      return closing;
    },
  };
}

export interface StartOptions extends ServerOptions {
  port?: number;
  /** Default 127.0.0.1. Without tokens only a loopback host is allowed. */
  host?: string;
  /** Close gracefully on SIGINT and SIGTERM (the CLI sets it). */
  handleSignals?: boolean;
}

export interface RunningServer extends ArefServer {
  url: string;
  port: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/** Builds the server and listens; refuses a non-loopback host without tokens. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  if (options.tokens === undefined && !LOOPBACK.has(host)) {
    throw new ArefError(
      "CONFIG_INVALID",
      `refusing to listen on ${host} without tokens: anyone could read every session`,
      {
        hint: "pass --token (or options.tokens), or listen on 127.0.0.1",
      },
    );
  }
  const server = await createServer(options);
  await server.app.listen({ port: options.port ?? 0, host });
  const address = server.app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? 0);
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  if (options.handleSignals) {
    const stop = () => {
      void server.close().then(() => process.exit(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  }
  return { ...server, url, port };
}
