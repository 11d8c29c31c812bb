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
    .option("--session <id>", `the session the tools and resources see (default: $AREF_SESSION, else ${DEFAULT_SESSION})`)
    .option("--max-chars <n>", "cap of one artifacts_get answer (default 8000)")
    .option("--http", "serve streamable HTTP on /mcp instead of stdio")
    .option("--port <n>", "HTTP port (0 picks a free one)", "3333")
    .option("--host <host>", "HTTP address", "127.0.0.1")
    .addHelpText(
      "after",
      `${examples([
        ["aref mcp --store ./.refs --session chat-1", "stdio; in an MCP client config: {\"command\": \"aref\", \"args\": [\"mcp\", \"--store\", \"/abs/.refs\", \"--session\", \"chat-1\"]}"],
        ["aref mcp --http --port 3333", "streamable HTTP on http://127.0.0.1:3333/mcp"],
      ])}`,
    )
    .action(async (opts: McpOptions, cmd: Command) => {
      const session = sessionOf(opts.session ?? ctx.io.env.AREF_SESSION) ?? DEFAULT_SESSION;
      const maxChars = opts.maxChars === undefined ? undefined : wholeNumberFlag("--max-chars", opts.maxChars, 1, 1_000_000);
      const port = wholeNumberFlag("--port", opts.port, 0, 65_535);
      const { serveHttp, serveStdio } = await import("@artifact-refs/mcp");
      const store = await ctx.openStore(cmd);
      const options = { store, session, ...(maxChars === undefined ? {} : { maxChars }) };
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
        throw new UsageError("aref mcp over stdio needs the process's standard input and output", "run it as a process (an MCP client starts it), or use --http");
      }
      await ctx.err(`aref: MCP over stdio, session ${session} (store: ${store.driver.kind})\n`);
      await serveStdio({ ...options, stdin, stdout });
    });
}
