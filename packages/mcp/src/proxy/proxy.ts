import { SessionRefs, type ContextConfig, type ContextConfigInput } from "@artifact-refs/context";
import { DEFAULT_FETCH_MAX_CHARS } from "@artifact-refs/schema";
import type { ArtifactStore } from "@artifact-refs/store";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type JSONRPCMessage, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { createArefMcpServer } from "../server.js";
import { RESOURCE_URI_PREFIX } from "../uri.js";
import { shrinkToolResult } from "./shrink.js";

/** The tools the proxy adds to the upstream's. */
export const PROXY_TOOLS = ["artifacts_get", "artifacts_list"] as const;
/** Default time an upstream request may take (reset by each progress notification). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 120_000;

export interface McpProxyOptions {
  /** The transport to the wrapped server (not started yet). */
  upstream: Transport;
  /** How to name the upstream in errors, e.g. "node server.js" or its URL. */
  upstreamName: string;
  /** The transport to the client (not started yet). */
  downstream: Transport;
  store: ArtifactStore;
  session: string;
  /** Externalizer settings (thresholds, per-tool policy, redaction). */
  config?: ContextConfig | ContextConfigInput;
  /** Cap of one artifacts_get answer (default 8,000 chars). */
  maxChars?: number;
  /** How long one request may wait for the upstream, in ms (default 120,000; each progress notification restarts it). */
  timeoutMs?: number;
  /** Where diagnostics go (default: nowhere). Never stdout over stdio. */
  log?: (line: string) => void;
}

type Id = string | number;
type Kind = "plain" | "initialize" | "tools/list" | "tools/call" | "resources/list" | "resources/templates/list";
interface Pending {
  method: string;
  kind: Kind;
  tool?: string;
  args?: Record<string, unknown>;
  progressToken?: unknown;
  timer?: NodeJS.Timeout;
}
type Msg = Record<string, unknown>;

const isObject = (v: unknown): v is Msg => v !== null && typeof v === "object" && !Array.isArray(v);
const KINDS = new Set<string>(["initialize", "tools/list", "tools/call", "resources/list", "resources/templates/list"]);

/**
 * An MCP proxy: every JSON-RPC message between a client and an upstream MCP server passes
 * through as it is (requests, responses, errors, progress, cancellation, list-changed
 * notifications, pagination cursors, server-to-client requests), except that
 * - tools/call results over the externalization thresholds are stored and replaced by a
 *   preview, a resource_link (aref://sha256/<hex>) and a line on how to read more;
 * - artifacts_get and artifacts_list are added to the tools, and the session's artifacts to
 *   the resources (answered here, by the same server `aref mcp` runs);
 * - a request the upstream does not answer in time, or cannot answer because it exited or
 *   sent a malformed message, gets a JSON-RPC error instead of hanging.
 */
export class McpProxy {
  readonly #o: McpProxyOptions;
  readonly #refs: SessionRefs;
  readonly #fetchMaxChars: number;
  readonly #timeoutMs: number;
  readonly #pending = new Map<Id, Pending>();
  readonly #local: Client;
  readonly #localServer: ReturnType<typeof createArefMcpServer>;
  #localTools: Tool[] = [];
  /** Upstream tools that declare an outputSchema (seen in tools/list answers): their structuredContent is never dropped. */
  readonly #typedTools = new Set<string>();
  #upstreamCaps: Msg = {};
  #gone: string | undefined;
  #closing = false;
  #closedResolve!: () => void;
  /** Settles when the client side closed (and the upstream was closed with it). */
  readonly closed: Promise<void>;

  constructor(options: McpProxyOptions) {
    this.#o = options;
    this.#fetchMaxChars = options.maxChars ?? DEFAULT_FETCH_MAX_CHARS;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    this.#refs = new SessionRefs(
      {
        store: options.store,
        session: options.session,
        maxChars: this.#fetchMaxChars,
        ...(options.config ? { config: options.config } : {}),
      },
      "new McpProxy",
    );
    this.#localServer = createArefMcpServer({
      store: options.store,
      session: options.session,
      maxChars: this.#fetchMaxChars,
    });
    this.#local = new Client({ name: "artifact-refs-proxy", version: "0.1.0" });
    this.closed = new Promise((resolve) => (this.#closedResolve = resolve));
  }

  /** Connects the local artifact server, starts the upstream, then the client side. */
  async start(): Promise<void> {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await this.#localServer.connect(a);
    await this.#local.connect(b);
    this.#localTools = (await this.#local.listTools()).tools.filter((t) =>
      (PROXY_TOOLS as readonly string[]).includes(t.name),
    );
    const { upstream, downstream } = this.#o;
    upstream.onmessage = (m) => this.#fromUpstream(m as unknown as Msg);
    upstream.onerror = (e) => this.#upstreamError(e);
    upstream.onclose = () => this.#upstreamClosed();
    downstream.onmessage = (m) => this.#fromClient(m as unknown as Msg);
    downstream.onerror = (e) => this.#log(`client transport: ${e.message}`);
    downstream.onclose = () => void this.close();
    await upstream.start();
    await downstream.start();
  }

  /** Closes both sides (the upstream process, if any, is stopped by its transport). */
  async close(): Promise<void> {
    if (this.#closing) return this.closed;
    this.#closing = true;
    for (const p of this.#pending.values()) clearTimeout(p.timer);
    this.#pending.clear();
    await this.#o.upstream.close().catch(() => undefined);
    await this.#o.downstream.close().catch(() => undefined);
    await this.#local.close().catch(() => undefined);
    await this.#localServer.close().catch(() => undefined);
    this.#closedResolve();
  }

  #log(line: string): void {
    this.#o.log?.(line);
  }

  #toClient(message: Msg): void {
    this.#o.downstream
      .send(message as unknown as JSONRPCMessage)
      .catch((e: unknown) => this.#log(`sending to the client failed: ${(e as Error).message}`));
  }

  #reply(id: Id, result: unknown): void {
    this.#toClient({ jsonrpc: "2.0", id, result });
  }

  #fail(id: Id, code: number, message: string, data?: unknown): void {
    this.#toClient({ jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } });
  }

  /** Answers a request with the local artifact server (errors keep their code, with no second "MCP error" prefix). */
  #answerLocally(id: Id, work: () => Promise<unknown>): void {
    work().then(
      (result) => this.#reply(id, result),
      (error: unknown) => {
        if (error instanceof McpError)
          this.#fail(id, error.code, error.message.replace(/^MCP error -?\d+: /, ""), error.data);
        else this.#fail(id, ErrorCode.InternalError, (error as Error).message ?? String(error));
      },
    );
  }

  #fromClient(msg: Msg): void {
    const method = typeof msg.method === "string" ? msg.method : undefined;
    const id = msg.id as Id | undefined;
    if (method !== undefined && id !== undefined)
      return this.#clientRequest(id, method, isObject(msg.params) ? msg.params : {}, msg);
    if (method === "notifications/cancelled" && isObject(msg.params)) {
      const pending = this.#pending.get(msg.params.requestId as Id);
      if (pending) {
        clearTimeout(pending.timer);
        this.#pending.delete(msg.params.requestId as Id);
      }
    }
    // Notifications and the client's answers to upstream requests go through as they are.
    if (this.#gone === undefined) this.#toUpstream(msg);
  }

  #clientRequest(id: Id, method: string, params: Msg, msg: Msg): void {
    const local = this.#local;
    if (method === "tools/call" && (PROXY_TOOLS as readonly string[]).includes(params.name as string)) {
      return this.#answerLocally(id, () =>
        local.callTool(params as { name: string; arguments?: Record<string, unknown> }),
      );
    }
    if (method === "resources/read" && typeof params.uri === "string" && params.uri.startsWith(RESOURCE_URI_PREFIX)) {
      return this.#answerLocally(id, () => local.readResource(params as { uri: string }));
    }
    if (this.#gone !== undefined) {
      return this.#fail(
        id,
        ErrorCode.ConnectionClosed,
        `the upstream MCP server (${this.#o.upstreamName}) is not running: ${this.#gone}; ${method} was not sent`,
      );
    }
    // What the upstream does not serve at all is answered here.
    if (method === "resources/list" && !this.#upstreamCaps.resources)
      return this.#answerLocally(id, () => local.listResources());
    if (method === "resources/templates/list" && !this.#upstreamCaps.resources)
      return this.#answerLocally(id, () => local.listResourceTemplates());
    if (method === "tools/list" && "initialized" in this.#upstreamCaps && !this.#upstreamCaps.tools)
      return this.#reply(id, { tools: this.#localTools });
    const pending: Pending = { method, kind: KINDS.has(method) ? (method as Kind) : "plain" };
    if (method === "tools/call") {
      pending.tool = String(params.name);
      if (isObject(params.arguments)) pending.args = params.arguments;
    }
    if (isObject(params._meta) && params._meta.progressToken !== undefined)
      pending.progressToken = params._meta.progressToken;
    this.#pending.set(id, pending);
    this.#arm(id, pending);
    this.#toUpstream(msg, id);
  }

  #arm(id: Id, pending: Pending): void {
    clearTimeout(pending.timer);
    if (!Number.isFinite(this.#timeoutMs) || this.#timeoutMs <= 0) return;
    pending.timer = setTimeout(() => {
      if (this.#pending.get(id) !== pending) return;
      this.#pending.delete(id);
      const what = pending.tool === undefined ? pending.method : `${pending.method} (tool ${pending.tool})`;
      this.#fail(
        id,
        ErrorCode.RequestTimeout,
        `the upstream MCP server (${this.#o.upstreamName}) did not answer ${what} within ${this.#timeoutMs} ms; the request was cancelled`,
        { timeoutMs: this.#timeoutMs },
      );
      this.#toUpstream({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, reason: `no answer within ${this.#timeoutMs} ms (proxy timeout)` },
      });
    }, this.#timeoutMs);
    pending.timer.unref?.();
  }

  #toUpstream(msg: Msg, requestId?: Id): void {
    this.#o.upstream.send(msg as unknown as JSONRPCMessage).catch((e: unknown) => {
      this.#log(`sending to the upstream failed: ${(e as Error).message}`);
      if (requestId === undefined || !this.#pending.has(requestId)) return;
      const pending = this.#pending.get(requestId)!;
      clearTimeout(pending.timer);
      this.#pending.delete(requestId);
      this.#fail(
        requestId,
        ErrorCode.ConnectionClosed,
        `the upstream MCP server (${this.#o.upstreamName}) could not take ${pending.method}: ${(e as Error).message}`,
      );
    });
  }

  #upstreamError(error: Error): void {
    this.#log(`upstream: ${error.message}`);
    // A line that is not JSON-RPC: whichever request it answered will never get its answer.
    if (error instanceof SyntaxError || error.name === "ZodError" || /JSON/.test(error.message)) {
      this.#failAll(
        ErrorCode.InternalError,
        `the upstream MCP server (${this.#o.upstreamName}) sent a malformed JSON-RPC message (${error.message.slice(0, 200)})`,
      );
    }
  }

  #upstreamClosed(): void {
    if (this.#closing) return;
    this.#gone = "it exited or closed the connection";
    this.#log(`upstream closed: ${this.#o.upstreamName}`);
    this.#failAll(
      ErrorCode.ConnectionClosed,
      `the upstream MCP server (${this.#o.upstreamName}) exited or closed the connection before answering`,
    );
  }

  #failAll(code: number, message: string): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      this.#fail(
        id,
        code,
        `${message}; ${pending.tool === undefined ? pending.method : `${pending.method} (tool ${pending.tool})`} got no answer`,
      );
    }
    this.#pending.clear();
  }

  #fromUpstream(msg: Msg): void {
    const id = msg.id as Id | undefined;
    if (typeof msg.method === "string" || id === undefined) {
      // A notification or a server-to-client request (sampling, elicitation, roots, ping).
      if (msg.method === "notifications/progress" && isObject(msg.params)) {
        for (const [pid, p] of this.#pending)
          if (p.progressToken !== undefined && p.progressToken === msg.params.progressToken) this.#arm(pid, p);
      }
      return this.#toClient(msg);
    }
    const pending = this.#pending.get(id);
    if (pending === undefined)
      return this.#log(`dropped an upstream answer to request ${String(id)} (cancelled, timed out or unknown)`);
    clearTimeout(pending.timer);
    this.#pending.delete(id);
    if (!isObject(msg.result) || pending.kind === "plain") return this.#toClient(msg);
    const result = msg.result;
    switch (pending.kind) {
      case "initialize":
        return this.#toClient({ ...msg, result: this.#initialized(result) });
      case "tools/list":
        this.#noteTypedTools(result);
        return this.#toClient(result.nextCursor === undefined ? { ...msg, result: this.#withLocalTools(result) } : msg);
      case "resources/list":
      case "resources/templates/list":
        if (result.nextCursor !== undefined) return this.#toClient(msg);
        return this.#answerLocally(id, async () => {
          const key = pending.kind === "resources/list" ? "resources" : "resourceTemplates";
          const mine =
            pending.kind === "resources/list"
              ? (await this.#local.listResources()).resources
              : (await this.#local.listResourceTemplates()).resourceTemplates;
          return { ...result, [key]: [...(Array.isArray(result[key]) ? (result[key] as unknown[]) : []), ...mine] };
        });
      case "tools/call":
        return this.#answerLocally(
          id,
          async () =>
            (
              await shrinkToolResult(
                result,
                {
                  tool: pending.tool!,
                  args: pending.args,
                  callId: String(id),
                  outputSchema: this.#typedTools.has(pending.tool!),
                },
                this.#refs,
                this.#fetchMaxChars,
              )
            ).result,
        );
    }
  }

  #initialized(result: Msg): Msg {
    const caps = isObject(result.capabilities) ? result.capabilities : {};
    this.#upstreamCaps = { ...caps, initialized: true };
    const upstream = this.#o.upstream as Transport & { setProtocolVersion?: (v: string) => void };
    if (typeof result.protocolVersion === "string") upstream.setProtocolVersion?.(result.protocolVersion);
    const note =
      `Tool results over the size limits are stored as artifacts (art:<hex>) and replaced by a preview and a resource link; ` +
      `call artifacts_get with the ref and a selector (range, grep, jsonpath, headtail) to read a bounded part, artifacts_list to see them all.`;
    return {
      ...result,
      capabilities: {
        ...caps,
        tools: isObject(caps.tools) ? caps.tools : {},
        resources: isObject(caps.resources) ? caps.resources : {},
      },
      instructions:
        typeof result.instructions === "string" && result.instructions.length > 0
          ? `${result.instructions}\n\n${note}`
          : note,
    };
  }

  #noteTypedTools(result: Msg): void {
    for (const t of Array.isArray(result.tools) ? (result.tools as Msg[]) : []) {
      if (typeof t.name !== "string") continue;
      if (isObject(t.outputSchema)) this.#typedTools.add(t.name);
      else this.#typedTools.delete(t.name);
    }
  }

  /** The upstream's tools, as they are (outputSchema kept), and ours. */
  #withLocalTools(result: Msg): Msg {
    const theirs = (Array.isArray(result.tools) ? (result.tools as Msg[]) : []).filter((t) => {
      if (!(PROXY_TOOLS as readonly string[]).includes(t.name as string)) return true;
      this.#log(`the upstream's tool ${String(t.name)} is hidden by the proxy's own`);
      return false;
    });
    return { ...result, tools: [...theirs, ...this.#localTools] };
  }
}
