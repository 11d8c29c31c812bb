#!/usr/bin/env node
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, Option } from "commander";
import { isArefError } from "@artifact-refs/schema";
import { runDemo } from "./agent.js";
import { selectProvider, type ProviderChoice } from "./providers/select.js";
import { renderTable } from "./report.js";
import { DEFAULT_REQUESTS, TEST_COMMAND } from "./requests.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

const program = new Command("aref-demo")
  .description("Runs an agent session on artifact-refs and reports what the prompts cost, turn by turn.")
  .addOption(
    new Option(
      "--provider <name>",
      "model: auto picks OpenAI-compatible (OPENAI_API_KEY / OPENAI_BASE_URL), Anthropic (ANTHROPIC_API_KEY), else the scripted policy",
    )
      .choices(["auto", "scripted", "openai", "anthropic"])
      .default("auto"),
  )
  .option("--model <name>", "model name for openai/anthropic")
  .option(
    "--store <spec>",
    "store: a directory, memory:, or s3://bucket/prefix?endpoint=… (default: a fresh temporary directory)",
  )
  .option("--workspace <dir>", "directory the tools may read", repoRoot)
  .option("--out <dir>", "where the transcript, metrics and report go", join(process.cwd(), ".aref-demo"))
  .addOption(
    new Option("--strategy <name>", "prompt assembly strategy (default: from the provider's prompt caching)").choices([
      "window",
      "append",
    ]),
  )
  .option("--max-prompt-tokens <n>", "prompt budget", (v) => Number.parseInt(v, 10), 8_000)
  .option("--serve", "after the run, print the `aref serve` command that opens the web UI on the session")
  .option("--port <n>", "port in the --serve command", (v) => Number.parseInt(v, 10), 8787)
  .option("--json", "print the summary as JSON")
  .option("-q, --quiet", "no progress lines")
  .addHelpText(
    "after",
    `\nExamples:\n  pnpm demo                                  offline, scripted, throwaway store\n  aref-demo --store ./store --strategy append\n  OPENAI_BASE_URL=http://localhost:11434/v1 aref-demo --model llama3.1   (Ollama)\n  aref-demo --store "s3://bucket/demo?endpoint=http://127.0.0.1:9000&forcePathStyle=true"`,
  );

program.action(
  async (opts: {
    provider: ProviderChoice;
    model?: string;
    store?: string;
    workspace: string;
    out: string;
    strategy?: "window" | "append";
    maxPromptTokens: number;
    serve?: boolean;
    port: number;
    json?: boolean;
    quiet?: boolean;
  }) => {
    const provider = selectProvider(opts.provider, process.env, opts.model);
    const store = opts.store ?? mkdtempSync(join(tmpdir(), "aref-demo-store-"));
    const log = opts.quiet || opts.json ? () => {} : (line: string) => process.stderr.write(`${line}\n`);
    log(`artifact-refs demo — model: ${provider.label}; store: ${store}`);
    const summary = await runDemo({
      provider,
      store,
      workspace: opts.workspace,
      outDir: opts.out,
      requests: DEFAULT_REQUESTS,
      allowedCommands: [TEST_COMMAND],
      ...(opts.strategy ? { strategy: opts.strategy } : {}),
      maxPromptTokens: opts.maxPromptTokens,
      log,
    });
    if (opts.json) {
      process.stdout.write(`${JSON.stringify({ schema: "artifact-refs.demo.v1", ...summary }, null, 2)}\n`);
    } else {
      const out = process.stdout;
      out.write(`\n${renderTable(summary.calls)}\n\n`);
      out.write(`model: ${summary.provider} · strategy: ${summary.strategy}\n`);
      out.write(
        `input tokens: naive ${summary.naiveTotal.toLocaleString("en-US")} → with artifact-refs ${summary.refsTotal.toLocaleString("en-US")} (${summary.savedPct.toFixed(1)}% saved)\n`,
      );
      out.write(
        `budget violations: ${summary.calls.reduce((n, c) => n + c.violations, 0)} · outputs rehydrated byte-exact: ${summary.rehydrated - summary.rehydrationMismatches}/${summary.rehydrated}\n`,
      );
      out.write(`transcript: ${summary.transcriptPath}\nreport: ${summary.reportPath}\n`);
    }
    if (summary.rehydrationMismatches > 0 || summary.calls.some((c) => !c.budgetOk)) process.exitCode = 1;
    if (opts.serve) {
      if (store.startsWith("memory:")) {
        process.stderr.write(
          "aref-demo: --serve needs a store that outlives the run (a directory or s3://…), not memory:\n",
        );
        process.exitCode = 2;
        return;
      }
      // The server is an app above this one: print the command that serves this session instead of starting it here.
      const args = [
        "aref serve",
        `--store ${shellQuote(store)}`,
        `--workspace ${shellQuote(opts.workspace)}`,
        `--port ${opts.port}`,
        `--preload ${shellQuote(summary.executionsPath)}`,
        `--preload-metrics ${shellQuote(summary.metricsPath)}`,
      ];
      process.stderr.write(
        `serve the web UI on this session (then open /?session=${encodeURIComponent(summary.session)}):\n  ${args.join(" ")}\n`,
      );
    }
  },
);

/** Quotes a value for a POSIX shell when it needs it. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

program.parseAsync().catch((error: unknown) => {
  if (isArefError(error)) {
    process.stderr.write(`aref-demo: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ""}`);
  } else {
    process.stderr.write(`aref-demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
