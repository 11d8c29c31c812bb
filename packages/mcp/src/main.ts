import { parseArgs } from "node:util";
import { isArefError, parseSessionId } from "@artifact-refs/schema";
import { openStore, parseStoreSpec, storeSpecFrom } from "@artifact-refs/store-spec";
import { serveHttp } from "./http.js";
import { serveStdio } from "./stdio.js";
import { serveProxyStdio } from "./proxy/serve.js";
import { parseUpstreamHeaders, upstreamName, type UpstreamSpec } from "./proxy/upstream.js";

export const MCP_USAGE = `Usage: aref-mcp [--store <spec>] [--session <id>] [--max-chars <n>] [--max-bytes <n>] [--http [--port <n>] [--host <addr>]]
       aref-mcp [--store <spec>] [--session <id>] [--timeout <ms>] --wrap -- <command> [args...]
       aref-mcp [--store <spec>] [--session <id>] [--timeout <ms>] --upstream <url> [--upstream-header "Name: value"]...

Serves an artifact-refs store over MCP: stdio by default, streamable HTTP on /mcp with --http.
With --wrap or --upstream, serves (over stdio) a proxy of another MCP server: its tools, resources
and prompts unchanged, large tool results stored and replaced by a preview + resource_link, plus
artifacts_get, artifacts_list and the session's artifacts as resources.
  --store <spec>      ./dir | memory: | s3://bucket/prefix?endpoint=… (default: $AREF_STORE, else ~/.artifact-refs)
  --session <id>      the session the tools and resources see (default: $AREF_SESSION, else "default")
  --max-chars <n>     cap of one artifacts_get answer (default 8000)
  --max-bytes <n>     cap of one stored artifact in bytes (default 1073741824 = 1 GiB; over 512 KiB is chunked)
  --http              serve streamable HTTP instead of stdio
  --port <n>          HTTP port (default 3333; 0 picks a free one)
  --host <addr>       HTTP address (default 127.0.0.1)
  --wrap              proxy the MCP server started by the command after --
  --upstream <url>    proxy the streamable HTTP MCP server at <url>
  --upstream-header <"Name: value">  a header sent to the upstream URL (repeatable)
  --timeout <ms>      longest wait for one upstream answer, restarted by progress (default 120000; 0 = none)
`;

function wholeNumber(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** The upstream of --wrap/--upstream, or undefined for the plain server; usage errors throw. */
function upstreamFrom(values: Record<string, unknown>, positionals: string[]): UpstreamSpec | undefined {
  const headers = (values["upstream-header"] as string[] | undefined) ?? [];
  if (values.wrap && values.upstream !== undefined)
    throw new Error("give --wrap -- <command> or --upstream <url>, not both");
  if ((values.wrap || values.upstream !== undefined) && values.http)
    throw new Error("the proxy speaks stdio to its client: drop --http");
  if (headers.length > 0 && values.upstream === undefined)
    throw new Error("--upstream-header goes with --upstream <url>");
  if (values.wrap) {
    const [command, ...args] = positionals;
    if (command === undefined)
      throw new Error("--wrap needs the upstream server's command after --, e.g. aref-mcp --wrap -- node server.js");
    return { command, args };
  }
  if (positionals.length > 0)
    throw new Error(`unexpected argument ${JSON.stringify(positionals[0])} (a command to wrap goes after --wrap --)`);
  if (values.upstream !== undefined) return { url: values.upstream as string, headers: parseUpstreamHeaders(headers) };
  return undefined;
}

/** The standalone `aref-mcp` command; returns the exit code. Logs go to stderr only (stdout is the protocol). */
export async function runMcpCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        store: { type: "string" },
        session: { type: "string" },
        "max-chars": { type: "string" },
        "max-bytes": { type: "string" },
        http: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        wrap: { type: "boolean" },
        upstream: { type: "string" },
        "upstream-header": { type: "string", multiple: true },
        timeout: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    process.stderr.write(`aref-mcp: ${(error as Error).message}\n${MCP_USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stderr.write(MCP_USAGE);
    return 0;
  }
  try {
    const session = parseSessionId((values.session as string | undefined) ?? env.AREF_SESSION ?? "default");
    const maxChars =
      values["max-chars"] === undefined
        ? undefined
        : wholeNumber("--max-chars", values["max-chars"] as string, 1, 1_000_000);
    const maxBytes =
      values["max-bytes"] === undefined
        ? undefined
        : wholeNumber("--max-bytes", values["max-bytes"] as string, 1, Number.MAX_SAFE_INTEGER);
    const store = await openStore(
      parseStoreSpec(storeSpecFrom(values.store as string | undefined, env)),
      maxBytes === undefined ? {} : { maxBytes },
    );
    const options = { store, session, ...(maxChars === undefined ? {} : { maxChars }) };
    const upstream = upstreamFrom(values, positionals);
    if (upstream !== undefined) {
      const timeoutMs =
        values.timeout === undefined ? undefined : wholeNumber("--timeout", values.timeout as string, 0, 86_400_000);
      process.stderr.write(`aref-mcp: proxying ${upstreamName(upstream)} over stdio (session ${session})\n`);
      await serveProxyStdio({
        ...options,
        upstream,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        log: (line) => process.stderr.write(`aref-mcp: ${line}\n`),
      });
    } else if (values.http) {
      const port = values.port === undefined ? 3333 : wholeNumber("--port", values.port as string, 0, 65_535);
      const running = await serveHttp({ ...options, port, host: (values.host as string | undefined) ?? "127.0.0.1" });
      process.stderr.write(`aref-mcp: streamable HTTP on ${running.url} (session ${session})\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      await running.close();
    } else {
      await serveStdio(options);
    }
    await store.close();
    return 0;
  } catch (error) {
    const message = isArefError(error)
      ? `${error.code}: ${error.message}${error.hint ? `\nhint: ${error.hint}` : ""}`
      : (error as Error).message;
    process.stderr.write(`aref-mcp: ${message}\n`);
    return isArefError(error) ? 1 : 2;
  }
}
