import { Readable, Writable } from "node:stream";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { wholeNumberFlag } from "../parse-options.js";
import { DEFAULT_SESSION, examples, sessionOf, untilStopSignal } from "./shared.js";

interface McpOptions {
  session?: string;
  maxChars?: string;
  http?: boolean;
  port: string;
  host: string;
  wrap?: boolean;
  upstream?: string;
  upstreamHeader: string[];
  timeout?: string;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("mcp")
    .summary("serve the store to MCP clients (stdio, or streamable HTTP)")
    .description(
      "Runs an MCP server over one session of the store: the tools artifacts_get (bounded), artifacts_stash, artifacts_list and artifacts_resolve, " +
        "and every artifact of the session as a resource (aref://sha256/<hex>, with ?mode=grep|range|jsonpath|headtail for a bounded part). " +
        "Speaks stdio by default (stdout carries only the protocol; logs go to stderr); --http serves streamable HTTP on /mcp.",
    )
    .option(
      "--session <id>",
      `the session the tools and resources see (default: $AREF_SESSION, else ${DEFAULT_SESSION})`,
    )
    .option("--max-chars <n>", "cap of one artifacts_get answer (default 8000)")
    .option("--http", "serve streamable HTTP on /mcp instead of stdio")
    .option("--port <n>", "HTTP port (0 picks a free one)", "3333")
    .option("--host <host>", "HTTP address", "127.0.0.1")
    .option("--wrap", "proxy the MCP server that the command after -- starts (stdio)")
    .option("--upstream <url>", "proxy the streamable HTTP MCP server at <url>")
    .option(
      "--upstream-header <header>",
      'a header for --upstream, "Name: value" (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [] as string[],
    )
    .option(
      "--timeout <ms>",
      "with --wrap/--upstream: longest wait for one upstream answer, restarted by progress (default 120000; 0 = none)",
    )
    .argument("[command...]", "with --wrap: the upstream server's command and arguments, after --")
    .addHelpText(
      "after",
      `${examples([
        [
          "aref mcp --store ./.refs --session chat-1",
          'stdio; in an MCP client config: {"command": "aref", "args": ["mcp", "--store", "/abs/.refs", "--session", "chat-1"]}',
        ],
        ["aref mcp --http --port 3333", "streamable HTTP on http://127.0.0.1:3333/mcp"],
        [
          "aref mcp --wrap -- npx -y @modelcontextprotocol/server-filesystem /tmp",
          "proxy a stdio MCP server: large tool results stored, a preview + link + artifacts_get instead",
        ],
        [
          'aref mcp --upstream https://mcp.example.com/mcp --upstream-header "Authorization: Bearer $TOKEN"',
          "proxy a streamable HTTP MCP server",
        ],
      ])}`,
    )
    .action(async (command: string[], opts: McpOptions, cmd: Command) => {
      const session = sessionOf(opts.session ?? ctx.io.env.AREF_SESSION) ?? DEFAULT_SESSION;
      const maxChars =
        opts.maxChars === undefined ? undefined : wholeNumberFlag("--max-chars", opts.maxChars, 1, 1_000_000);
      const port = wholeNumberFlag("--port", opts.port, 0, 65_535);
      const upstream = await upstreamOf(command, opts);
      const timeoutMs =
        opts.timeout === undefined ? undefined : wholeNumberFlag("--timeout", opts.timeout, 0, 86_400_000);
      const { serveHttp, serveStdio, serveProxyStdio, upstreamName } = await import("@artifact-refs/mcp");
      const store = await ctx.openStore(cmd);
      const options = { store, session, ...(maxChars === undefined ? {} : { maxChars }) };
      if (upstream !== undefined) {
        const { stdin, stdout } = ctx.io;
        if (!(stdin instanceof Readable) || !(stdout instanceof Writable)) {
          throw new UsageError(
            "aref mcp --wrap/--upstream speaks stdio to its client and needs the process's standard input and output",
            "run it as a process (an MCP client starts it)",
          );
        }
        await ctx.err(
          `aref: MCP proxy of ${upstreamName(upstream)} over stdio, session ${session} (store: ${store.driver.kind})\n`,
        );
        await serveProxyStdio({
          ...options,
          upstream,
          stdin,
          stdout,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          log: (line) => void ctx.err(`aref: ${line}\n`),
        });
        return;
      }
      if (opts.http) {
        const running = await serveHttp({ ...options, port, host: opts.host });
        await ctx.err(`aref: MCP (streamable HTTP) on ${running.url}, session ${session}\n`);
        await ctx.out(`${running.url}\n`);
        await untilStopSignal();
        await running.close();
        return;
      }
      const { stdin, stdout } = ctx.io;
      if (!(stdin instanceof Readable) || !(stdout instanceof Writable)) {
        throw new UsageError(
          "aref mcp over stdio needs the process's standard input and output",
          "run it as a process (an MCP client starts it), or use --http",
        );
      }
      await ctx.err(`aref: MCP over stdio, session ${session} (store: ${store.driver.kind})\n`);
      await serveStdio({ ...options, stdin, stdout });
    });
}

/** The upstream of --wrap/--upstream (undefined for the plain server); usage errors for bad combinations. */
async function upstreamOf(
  command: string[],
  opts: McpOptions,
): Promise<import("@artifact-refs/mcp").UpstreamSpec | undefined> {
  if (opts.wrap && opts.upstream !== undefined)
    throw new UsageError("give --wrap -- <command> or --upstream <url>, not both");
  if ((opts.wrap || opts.upstream !== undefined) && opts.http)
    throw new UsageError("the proxy speaks stdio to its client: drop --http");
  if (opts.upstreamHeader.length > 0 && opts.upstream === undefined)
    throw new UsageError("--upstream-header goes with --upstream <url>");
  if (opts.wrap) {
    const [program, ...args] = command;
    if (program === undefined)
      throw new UsageError(
        "--wrap needs the upstream server's command after --",
        "e.g. aref mcp --wrap -- node server.js",
      );
    return { command: program, args };
  }
  if (command.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(command[0])}`, "a command to wrap goes after --wrap --");
  if (opts.upstream === undefined) return undefined;
  const { parseUpstreamHeaders } = await import("@artifact-refs/mcp");
  return { url: opts.upstream, headers: parseUpstreamHeaders(opts.upstreamHeader) };
}
