import { ArefError } from "@artifact-refs/schema";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** The server the proxy wraps: a command it starts (stdio), or a streamable HTTP endpoint. */
export type UpstreamSpec =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> };

/** Parses `--upstream-header "Name: value"` lines into a header record (INVALID_INPUT on a bad line). */
export function parseUpstreamHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(line);
    if (!match || /[\r\n]/.test(match[2]!)) {
      throw new ArefError(
        "INVALID_INPUT",
        `--upstream-header ${JSON.stringify(line.slice(0, 80))} is not "Name: value"`,
        { hint: 'e.g. --upstream-header "Authorization: Bearer $TOKEN"' },
      );
    }
    headers[match[1]!] = match[2]!;
  }
  return headers;
}

/** How the upstream is named in errors: its command line or its URL (without credentials). */
export function upstreamName(spec: UpstreamSpec): string {
  if ("url" in spec) {
    const url = new URL(spec.url);
    url.username = "";
    url.password = "";
    return url.href;
  }
  return [spec.command, ...(spec.args ?? [])].join(" ").slice(0, 200);
}

/**
 * The client transport to the upstream. A command is started with this process's environment
 * (a wrapped server needs its API keys) and its stderr passed through; an URL must be http(s).
 */
export function upstreamTransport(spec: UpstreamSpec): Transport {
  if ("url" in spec) {
    let url: URL;
    try {
      url = new URL(spec.url);
    } catch {
      throw new ArefError("INVALID_INPUT", `--upstream ${JSON.stringify(spec.url.slice(0, 200))} is not a URL`, {
        hint: "e.g. --upstream http://127.0.0.1:8080/mcp",
      });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ArefError("INVALID_INPUT", `--upstream must be an http(s) URL, got ${url.protocol}`, {
        hint: "e.g. --upstream https://mcp.example.com/mcp",
      });
    }
    return new StreamableHTTPClientTransport(url, { requestInit: { headers: spec.headers ?? {} } });
  }
  if (spec.command.length === 0)
    throw new ArefError("INVALID_INPUT", "--wrap needs the upstream server's command after --", {
      hint: "e.g. aref mcp --wrap -- npx -y @modelcontextprotocol/server-filesystem /tmp",
    });
  const env = Object.fromEntries(
    Object.entries({ ...process.env, ...spec.env }).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  return new StdioClientTransport({
    command: spec.command,
    args: spec.args ?? [],
    env,
    stderr: "inherit",
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
  });
}
