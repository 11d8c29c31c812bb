import type { SelectionPoolOptions } from "./selection-pool.js";
import { ArefError } from "@artifact-refs/schema";
import type { SessionPreload } from "./kit/index.js";
import type { ContextConfigInput } from "@artifact-refs/context";
import type { ArtifactStore } from "@artifact-refs/store";
import type { TokensInput } from "./auth.js";
import type { ServerKit } from "./kit/types.js";
import type { ChatProvider } from "./provider.js";
import type { Tool } from "@artifact-refs/tools";

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_RATE_LIMIT = { max: 600, timeWindowMs: 60_000 };
export const DEFAULT_ACCESS_CACHE_MS = 1_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_UNAUTHENTICATED = 256;

/** The socket timeouts, validated (CONFIG_INVALID otherwise). */
export function serverTimeouts(options: Pick<ServerOptions, "requestTimeoutMs" | "idleTimeoutMs">): {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  checkEveryMs: number;
} {
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  for (const [name, v] of [
    ["requestTimeoutMs", requestTimeoutMs],
    ["idleTimeoutMs", idleTimeoutMs],
  ] as const) {
    if (!Number.isInteger(v) || v < 100)
      throw new ArefError("CONFIG_INVALID", `${name} must be an integer ≥ 100, got ${String(v)}`);
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs: requestTimeoutMs,
    idleTimeoutMs,
    checkEveryMs: Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
  };
}

export interface ServerOptions {
  /** An open ArtifactStore, or a store spec (memory:, ./dir, s3://bucket/prefix?endpoint=…). */
  store: ArtifactStore | string;
  /** Directory the built-in tools may read. Without it, read_file, list_files and grep are not registered. */
  workspace?: string;
  /**
   * Bearer tokens: `admin` may do everything; each `sessions` token only its sessions.
   * Without tokens the API is open, and startServer only binds a loopback address.
   */
  tokens?: TokensInput;
  /** Without tokens, extra Host names (besides 127.0.0.1, localhost, ::1) the server answers; others get 403 (DNS rebinding). */
  allowedHosts?: string[];
  /** Largest request body in bytes (default 1 MiB); larger is 413. */
  bodyLimit?: number;
  /** Requests per window per token (or per IP without a token); `false` turns the limit off. */
  rateLimit?: { max: number; timeWindowMs?: number } | false;
  /** Extra tools for /api/artifacts/execute. */
  tools?: Tool<any>[];
  /** A chat model; without it the chat endpoint returns the context message only. */
  provider?: ChatProvider;
  /** Context-kit configuration (externalizer thresholds, redaction, execution context limits). */
  context?: ContextConfigInput;
  /** Sessions to serve from the start: saved execution contexts (`ExecutionContext.toJSON()`) and metrics events. */
  preload?: SessionPreload;
  /** Replaces parts of the kit (selection, reference resolution, executions, metrics, hot state). */
  kit?: Partial<ServerKit>;
  /** Serve the web UI at / (default true when dist/web exists). */
  ui?: boolean;
  /** Characters of bounded-fetch selections kept in memory (default 16 Mi; 0 turns the cache off). */
  selectionCacheChars?: number;
  /** JSONPath/grep selections of large texts run in worker threads (see selection-pool.ts). */
  selectionPool?: SelectionPoolOptions;
  /**
   * Bounded fetch (`GET /api/artifacts/:ref`) may reuse a session's access check this many
   * milliseconds old (default 1000; 0 checks the store on every request). Drops and cleanups made
   * through this server are seen at once and expiry is checked on every request; the bound only
   * matters for references dropped by another process or instance sharing the store.
   */
  accessCacheMs?: number;
  /** Time for a whole request (headers and body) to arrive, in ms (default 30 s); slower ones get 408 and are closed. */
  requestTimeoutMs?: number;
  /** An idle connection (no bytes either way) is closed after this many ms (default 60 s). */
  idleTimeoutMs?: number;
  /** With tokens: connections that have not yet made an authenticated request, at most (default 256; more are closed at once). */
  maxUnauthenticatedConnections?: number;
  /** How long close() waits for in-flight requests before cutting their sockets (default 10 s). */
  shutdownGraceMs?: number;
  /** Fastify logger (default off). */
  logger?: boolean;
}
