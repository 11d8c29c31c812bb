import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { wholeNumberFlag } from "../parse-options.js";
import { examples, untilStopSignal } from "./shared.js";

interface ServeOptions {
  port: string;
  host: string;
  workspace?: string;
  token?: string;
  sessionToken: string[];
  bodyLimit?: string;
  rateLimit?: string;
  accessCacheMs?: string;
  preload: string[];
  preloadMetrics: string[];
}

/** "token=s1,s2" → [token, [s1, s2]] */
function sessionToken(value: string): [string, string[]] {
  const at = value.indexOf("=");
  if (at <= 0 || at === value.length - 1)
    throw new UsageError(
      `--session-token must be <token>=<session>[,<session>…], got ${JSON.stringify(value.slice(0, 40))}`,
    );
  return [value.slice(0, at), value.slice(at + 1).split(",")];
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("serve")
    .summary("start the HTTP API and the web UI")
    .description(
      "Serves the artifact-refs HTTP API and web UI on the store (--store). Without --token the API is open and only 127.0.0.1 is allowed. " +
        "Stops gracefully on SIGINT/SIGTERM: in-flight writes finish first.",
    )
    .option("--port <n>", "port to listen on (0 picks a free one)", "8787")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--workspace <dir>", "directory the read_file, list_files and grep tools may read")
    .option("--token <token>", "admin bearer token, at least 16 chars (default: $AREF_TOKEN)")
    .option(
      "--session-token <token=s1,s2>",
      "a bearer token limited to these sessions (repeatable)",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option("--body-limit <bytes>", "largest request body (default 1 MiB)")
    .option("--rate-limit <n>", "requests per minute per token or IP (0 turns it off; default 600)")
    .option(
      "--access-cache-ms <ms>",
      "how old a session's access check bounded fetch may reuse; drops by other instances show within it (0 checks every request; default 1000)",
    )
    .option(
      "--preload <executions.json>",
      "serve a finished session's execution records from the start, e.g. aref-demo's <session>.executions.json (repeatable)",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option(
      "--preload-metrics <metrics.jsonl>",
      "per-turn metrics to serve with the preloaded sessions (repeatable)",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .addHelpText(
      "after",
      `${examples([
        [
          "aref serve --workspace . --token $(openssl rand -hex 16)",
          "the API and UI on http://127.0.0.1:8787 with an admin token",
        ],
        [
          "aref serve --store s3://bucket/refs?endpoint=http://127.0.0.1:9000 --host 0.0.0.0 --token $T",
          "one of several instances sharing a bucket",
        ],
      ])}
Environment:
  AREF_TOKEN             admin token when --token is not given
  AREF_PROVIDER_URL      an OpenAI-compatible /v1 base URL for chat answers (optional)
  AREF_PROVIDER_MODEL    its model name
  AREF_PROVIDER_API_KEY  its API key (optional)
`,
    )
    .action(async (opts: ServeOptions, cmd: Command) => {
      const admin = opts.token ?? ctx.io.env.AREF_TOKEN;
      const sessions = Object.fromEntries(opts.sessionToken.map(sessionToken));
      const tokens =
        admin === undefined && opts.sessionToken.length === 0
          ? undefined
          : { ...(admin === undefined ? {} : { admin }), sessions };
      const port = wholeNumberFlag("--port", opts.port, 0, 65_535);
      const rate =
        opts.rateLimit === undefined ? undefined : wholeNumberFlag("--rate-limit", opts.rateLimit, 0, 1_000_000);
      const env = ctx.io.env;
      const { startServer, openAiCompatibleProvider } = await import("@artifact-refs/server");
      const provider =
        env.AREF_PROVIDER_URL && env.AREF_PROVIDER_MODEL
          ? openAiCompatibleProvider({
              baseUrl: env.AREF_PROVIDER_URL,
              model: env.AREF_PROVIDER_MODEL,
              ...(env.AREF_PROVIDER_API_KEY ? { apiKey: env.AREF_PROVIDER_API_KEY } : {}),
            })
          : undefined;
      const preload = await readPreload(opts.preload, opts.preloadMetrics);
      const store = await ctx.openStore(cmd);
      const server = await startServer({
        store,
        port,
        host: opts.host,
        ...(opts.workspace === undefined ? {} : { workspace: opts.workspace }),
        ...(tokens === undefined ? {} : { tokens }),
        ...(opts.bodyLimit === undefined
          ? {}
          : { bodyLimit: wholeNumberFlag("--body-limit", opts.bodyLimit, 1, 1024 ** 3) }),
        ...(rate === undefined ? {} : { rateLimit: rate === 0 ? false : { max: rate, timeWindowMs: 60_000 } }),
        ...(opts.accessCacheMs === undefined
          ? {}
          : { accessCacheMs: wholeNumberFlag("--access-cache-ms", opts.accessCacheMs, 0, 3_600_000) }),
        ...(provider === undefined ? {} : { provider }),
        ...(preload === undefined ? {} : { preload }),
      });
      await ctx.err(
        `aref: serving ${server.url} (store: ${store.driver.kind}${opts.workspace ? `, workspace: ${opts.workspace}` : ""}${tokens ? ", bearer tokens required" : ", no tokens: loopback only"})\n`,
      );
      await ctx.err(`aref: open ${openUrl(server.url, admin, ctx.io.stderr.isTTY === true)}\n`);
      await ctx.out(`${server.url}\n`);
      // Runs until SIGINT/SIGTERM, then closes gracefully (in-flight requests finish).
      await untilStopSignal();
      await server.close().catch(() => undefined);
      await ctx.err("aref: server stopped\n");
    });
}

/** Reads the --preload and --preload-metrics files; a missing or malformed file is a usage error. */
async function readPreload(executions: string[], metrics: string[]) {
  if (executions.length === 0 && metrics.length === 0) return undefined;
  const { readFile } = await import("node:fs/promises");
  const { readMetricsFile } = await import("@artifact-refs/budget");
  const states: unknown[] = [];
  for (const file of executions) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (cause) {
      throw new UsageError(`--preload ${file}: ${(cause as Error).message}`);
    }
    try {
      states.push(JSON.parse(text));
    } catch (cause) {
      throw new UsageError(`--preload ${file} is not JSON: ${(cause as Error).message}`);
    }
  }
  return { executions: states, metrics: metrics.flatMap((file) => readMetricsFile(file).events) };
}

/**
 * The web UI's URL to open. The token goes in the fragment (`#token=`), which browsers never send
 * to the server, so it stays out of request lines and server logs; and it is printed only to a
 * terminal, so a supervisor that captures stderr into a log file gets a placeholder instead.
 */
export function openUrl(base: string, admin: string | undefined, terminal: boolean): string {
  if (admin === undefined) return `${base}/`;
  return terminal
    ? `${base}/#token=${encodeURIComponent(admin)}`
    : `${base}/#token=<admin token> (printed only to a terminal)`;
}
