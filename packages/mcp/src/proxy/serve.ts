import type { Readable, Writable } from "node:stream";
import { loadContextConfig } from "@artifact-refs/context";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { McpProxy, type McpProxyOptions } from "./proxy.js";
import { upstreamName, upstreamTransport, type UpstreamSpec } from "./upstream.js";

export interface ProxyServeOptions extends Omit<McpProxyOptions, "upstream" | "upstreamName" | "downstream"> {
  upstream: UpstreamSpec;
  /** Default: process.stdin */
  stdin?: Readable;
  /** Default: process.stdout (the protocol only: log to stderr). */
  stdout?: Writable;
  signal?: AbortSignal;
}

/** Serves the proxy to a client over stdin/stdout until the client closes stdin (or `signal` aborts). */
export async function serveProxyStdio(options: ProxyServeOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const { upstream, stdin: _in, stdout, signal, ...rest } = options;
  const proxy = new McpProxy({
    ...rest,
    // Thresholds, per-tool policy and redaction: the code's config, else the AREF_* variables.
    config: rest.config ?? loadContextConfig(),
    upstream: upstreamTransport(upstream),
    upstreamName: upstreamName(upstream),
    downstream: new StdioServerTransport(stdin, stdout ?? process.stdout),
  });
  stdin.once("end", () => void proxy.close());
  signal?.addEventListener("abort", () => void proxy.close(), { once: true });
  try {
    await proxy.start();
  } catch (error) {
    await proxy.close();
    throw error;
  }
  await proxy.closed;
}
