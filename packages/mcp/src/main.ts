import { parseArgs } from "node:util";
import { isArefError, parseSessionId } from "@artifact-refs/schema";
import { openStore, parseStoreSpec, storeSpecFrom } from "@artifact-refs/store-spec";
import { serveHttp } from "./http.js";
import { serveStdio } from "./stdio.js";

export const MCP_USAGE = `Usage: aref-mcp [--store <spec>] [--session <id>] [--max-chars <n>] [--max-bytes <n>] [--http [--port <n>] [--host <addr>]]

Serves an artifact-refs store over MCP: stdio by default, streamable HTTP on /mcp with --http.
  --store <spec>      ./dir | memory: | s3://bucket/prefix?endpoint=… (default: $AREF_STORE, else ~/.artifact-refs)
  --session <id>      the session the tools and resources see (default: $AREF_SESSION, else "default")
  --max-chars <n>     cap of one artifacts_get answer (default 8000)
  --max-bytes <n>     cap of one stored artifact in bytes (default 1073741824 = 1 GiB; over 512 KiB is chunked)
  --http              serve streamable HTTP instead of stdio
  --port <n>          HTTP port (default 3333; 0 picks a free one)
  --host <addr>       HTTP address (default 127.0.0.1)
`;

function wholeNumber(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** The standalone `aref-mcp` command; returns the exit code. Logs go to stderr only (stdout is the protocol). */
export async function runMcpCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        store: { type: "string" },
        session: { type: "string" },
        "max-chars": { type: "string" },
        "max-bytes": { type: "string" },
        http: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
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
    const maxChars = values["max-chars"] === undefined ? undefined : wholeNumber("--max-chars", values["max-chars"] as string, 1, 1_000_000);
    const maxBytes = values["max-bytes"] === undefined ? undefined : wholeNumber("--max-bytes", values["max-bytes"] as string, 1, Number.MAX_SAFE_INTEGER);
    const store = await openStore(parseStoreSpec(storeSpecFrom(values.store as string | undefined, env)), maxBytes === undefined ? {} : { maxBytes });
    const options = { store, session, ...(maxChars === undefined ? {} : { maxChars }) };
    if (values.http) {
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
    const message = isArefError(error) ? `${error.code}: ${error.message}${error.hint ? `\nhint: ${error.hint}` : ""}` : (error as Error).message;
    process.stderr.write(`aref-mcp: ${message}\n`);
    return isArefError(error) ? 1 : 2;
  }
}
