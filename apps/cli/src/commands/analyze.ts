import { readdir, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ArefError } from "@artifact-refs/schema";
import { InvalidArgumentError, type Command } from "commander";
import type { CliContext } from "../context.js";
import { examples } from "./shared.js";

function positive(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return Number(value);
}

function compaction(value: string): "budget" | "cost" {
  if (value !== "budget" && value !== "cost")
    throw new InvalidArgumentError(`unknown compaction rule "${value}"; use budget or cost`);
  return value;
}

function priceModel(value: string): "anthropic" | "openai" | "none" {
  if (value !== "anthropic" && value !== "openai" && value !== "none")
    throw new InvalidArgumentError(`unknown price model "${value}"; use anthropic, openai or none`);
  return value;
}

function encoding(value: string): "cl100k_base" | "o200k_base" {
  if (value !== "cl100k_base" && value !== "o200k_base")
    throw new InvalidArgumentError(`unknown encoding "${value}"; use cl100k_base or o200k_base`);
  return value;
}

interface AnalyzeOpts {
  chart?: string;
  turns?: boolean;
  wide?: boolean;
  maxPromptTokens?: number;
  fetchChars?: number;
  keepTurns?: number;
  encoding?: "cl100k_base" | "o200k_base";
  appendCompaction?: "budget" | "cost";
  priceModel?: "anthropic" | "openai" | "none";
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("analyze")
    .summary(
      "replay transcripts: naive vs artifact-refs (window, append) vs peer policies, in tokens and cache-weighted cost",
    )
    .description(
      "Replays each transcript through the externalizer and the prompt assembler. A model call happens before each assistant " +
        "message. Reports, per call and in total: naive input tokens (every earlier message re-sent), tokens with artifact-refs " +
        "(one capped artifacts_get fetch counted in the call after each externalized output), the floor (system prompt + first " +
        "task message on every call), the window and append strategies, the peer policies (deepagents, Claude Code, Anthropic " +
        "context editing, SWE-agent's last-5), the share of each prompt that is a byte-identical prefix of the previous one, " +
        "cache-weighted cost (--price-model; default cached prefix 0.1x, the rest 1.25x), budget violations and byte-exact rehydration. " +
        "Formats: this project's transcript JSONL (tool results stored as references are read back from --store), " +
        "trajectory JSONL, an OpenAI chat messages array, an Anthropic messages array.",
    )
    .argument("<transcripts...>", "transcript files (.jsonl or .json), or directories: every .jsonl/.json file in each")
    .option(
      "--chart <file>",
      "write an SVG chart: per transcript, each policy's input tokens and cost as a percent of naive",
    )
    .option("--turns", "print the per-call table (default when one transcript is given)")
    .option(
      "--wide",
      "print every column (floor, refs, rehydration mismatches, full peer names, one decimal) as markdown tables; " +
        "the default fits 100 columns",
    )
    .option("--max-prompt-tokens <n>", "prompt budget of the assembler (default 8000)", positive)
    .option(
      "--fetch-chars <n>",
      "cap of the artifacts_get fetch counted after each externalized output (default 8000)",
      positive,
    )
    .option("--keep-turns <n>", "turns every assembled prompt keeps (default 2, at least 2)", positive)
    .option("--encoding <name>", "tokenizer encoding: cl100k_base (default) or o200k_base", encoding)
    .option(
      "--append-compaction <rule>",
      "when append compacts: cost (default: at maxPromptTokens or earlier when a compaction costs less than the longer run, under --price-model) or budget (only at maxPromptTokens)",
      compaction,
    )
    .option(
      "--price-model <name>",
      "prices of the cache-weighted cost: anthropic (default: cached 0.1x, write 1.25x), openai (0.5x, 1.0x) or none",
      priceModel,
    )
    .addHelpText(
      "after",
      examples([
        ["aref analyze session.jsonl", "per-call and total figures of one transcript"],
        [
          "aref analyze ../shared/data/trajectories --chart policies.svg",
          "every transcript of a directory: a table (100 columns) and a chart",
        ],
        ["aref analyze ../shared/data/trajectories --wide > report.md", "every column, as markdown tables"],
        [
          "aref analyze messages.json --json | jq .strategies",
          "window and append totals as JSON (artifact-refs.analyze.v1)",
        ],
        ["aref analyze run.jsonl --price-model openai", "cost under OpenAI-style cache prices (0.5x read, 1.0x write)"],
      ]),
    )
    .action(async (files: string[], opts: AnalyzeOpts, cmd: Command) => {
      if (opts.keepTurns !== undefined && opts.keepTurns < 2) {
        throw new ArefError("INVALID_INPUT", `--keep-turns must be at least 2, got ${opts.keepTurns}`, {
          hint: "every prompt keeps the last two turns",
        });
      }
      const {
        ANALYZE_TEXT_WIDTH,
        AnalyzeReportSchema,
        analyzeFiles,
        formatAnalyzeTable,
        formatSummary,
        formatTurnTable,
        formatWorstFiles,
        renderAnalyzeSvg,
        wrapText,
      } = await import("@artifact-refs/analyze");
      const progress = ctx.progress("analyze");
      let report;
      try {
        report = await analyzeFiles(await transcriptFiles(files.map((f) => resolve(ctx.io.cwd, f))), {
          store: () => ctx.openStore(cmd),
          onProgress: progress.update,
          ...(opts.maxPromptTokens === undefined ? {} : { maxPromptTokens: opts.maxPromptTokens }),
          ...(opts.fetchChars === undefined ? {} : { fetchChars: opts.fetchChars }),
          ...(opts.keepTurns === undefined ? {} : { keepTurns: opts.keepTurns }),
          ...(opts.encoding === undefined ? {} : { encoding: opts.encoding }),
          ...(opts.appendCompaction === undefined ? {} : { appendCompaction: opts.appendCompaction }),
          ...(opts.priceModel === undefined ? {} : { priceModel: opts.priceModel }),
        });
      } finally {
        progress.stop();
      }
      if (opts.chart) {
        const path = resolve(ctx.io.cwd, opts.chart);
        try {
          await writeFile(path, renderAnalyzeSvg(report));
        } catch (error) {
          throw new ArefError("IO_ERROR", `cannot write the chart to ${path}: ${(error as Error).message}`, {
            cause: error,
          });
        }
      }
      await ctx.emit(AnalyzeReportSchema, report, async (r) => {
        const text = { wide: opts.wide === true };
        await ctx.out(`${formatSummary(r, text)}\n\n${formatAnalyzeTable(r, text)}\n`);
        const worst = formatWorstFiles(r, text);
        if (worst) await ctx.out(`\n${worst}\n`);
        if (opts.turns || r.files.length === 1) {
          for (const f of r.files) await ctx.out(`\n${f.file}: per call\n\n${formatTurnTable(r, f.file, text)}\n`);
        }
        const note =
          "Each cell is a ratio to the naive transcript under the same measure: input tokens / cache-weighted cost " +
          `(price model ${opts.priceModel ?? "anthropic"}: a prefix byte-identical to the previous call's prompt at the cached price, the rest at the write price).`;
        await ctx.out(`\n${opts.wide ? note : wrapText(note, ANALYZE_TEXT_WIDTH)}\n`);
        if (opts.chart) await ctx.out(`chart: ${opts.chart}\n`);
      });
    });
}

/** The transcript files of the arguments: a directory stands for its .jsonl and .json files (sorted). */
async function transcriptFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory() !== true) {
      files.push(path); // a file, or a missing path that analyzeFiles reports
      continue;
    }
    const inside = (await readdir(path, { withFileTypes: true }))
      .filter((e) => e.isFile() && /\.(jsonl|json)$/i.test(e.name))
      .map((e) => join(path, e.name));
    if (inside.length === 0) {
      throw new ArefError("INVALID_INPUT", `${path} holds no transcript (.jsonl or .json file)`, {
        hint: "give transcript files, or a directory that holds some",
      });
    }
    files.push(...inside.sort());
  }
  return files;
}
