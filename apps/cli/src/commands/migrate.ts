import { basename, resolve } from "node:path";
import type { TranscriptFormat } from "@artifact-refs/context";
import { parseSessionId } from "@artifact-refs/schema";
import { InvalidArgumentError, type Command } from "commander";
import type { CliContext } from "../context.js";
import { formatBytes, formatCount } from "../format.js";
import { examples } from "./shared.js";

/**
 * @artifact-refs/context's TRANSCRIPT_FORMATS, in its order, without loading the package for `--help`:
 * the compiler checks the record names each format exactly once.
 */
const FORMAT_NAMES: Record<TranscriptFormat, true> = { jsonl: true, json: true, auto: true };
export const TRANSCRIPT_FORMATS = Object.keys(FORMAT_NAMES) as TranscriptFormat[];

function parseFormat(value: string): TranscriptFormat {
  if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`unknown transcript format "${value}"; use ${TRANSCRIPT_FORMATS.join(", ")}`);
  }
  return value as TranscriptFormat;
}

function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a non-negative integer, got "${value}"`);
  return Number(value);
}

/** The session a transcript's artifacts are referenced from, by default: its file name without extension. */
export function sessionFromPath(path: string): string {
  const name = basename(path)
    .replace(/\.(jsonl?|ndjson)$/i, "")
    .replace(/[^A-Za-z0-9._:-]/g, "-")
    .slice(0, 128);
  return name === "" || name === "." || name === ".." ? "default" : name;
}

interface MigrateOpts {
  session?: string;
  dryRun?: boolean;
  backup?: boolean;
  format?: TranscriptFormat;
  config?: string;
  maxInlineChars?: number;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("migrate")
    .summary("move the inline tool payloads of a legacy transcript into the store")
    .description(
      "Rewrites a JSONL (or JSON) session transcript so that each large tool result is stored in the store and the line " +
        "keeps only details.artifactRef (the externalizer's rules: over the inline threshold in chars, lines or tokens, or " +
        "structured). Secrets are redacted before storing. Keeps a backup (<file>.bak), rewrites atomically, leaves untouched " +
        "lines byte-identical, and is idempotent: a second run changes nothing. Safe to interrupt: rerun to complete.",
    )
    .argument("<transcript>", "the transcript file (.jsonl, or .json with an array of messages)")
    .option("--session <id>", "session the migrated artifacts belong to (default: the file name without extension)")
    .option("--dry-run", "report what would move; write nothing")
    .option("--no-backup", "do not keep <file>.bak")
    .option("--format <format>", `transcript format: ${TRANSCRIPT_FORMATS.join(", ")}`, parseFormat, "auto")
    .option("--config <file>", "context kit config (JSON): thresholds, per-tool rules, redaction rules")
    .option("--max-inline-chars <n>", "inline threshold in chars (default 2000)", parseCount)
    .addHelpText(
      "after",
      examples([
        ["aref migrate sessions/s1.jsonl --dry-run", "what would move, and how many bytes"],
        ["aref migrate sessions/s1.jsonl --session s1", "migrate (backup in sessions/s1.jsonl.bak)"],
        ["aref migrate old.json --format json --json", "migrate a JSON transcript and print the receipt"],
      ]),
    )
    .action(async (file: string, opts: MigrateOpts, cmd: Command) => {
      const path = resolve(ctx.io.cwd, file);
      const session = parseSessionId(opts.session ?? sessionFromPath(path));
      const { Externalizer, MigrationReportSchema, loadContextConfig, migrateTranscript } = await import(
        "@artifact-refs/context"
      );
      const config = loadContextConfig({
        ...(opts.config ? { file: resolve(ctx.io.cwd, opts.config) } : {}),
        env: ctx.io.env,
        ...(opts.maxInlineChars === undefined
          ? {}
          : { config: { externalize: { maxInlineChars: opts.maxInlineChars } } }),
      });
      const store = await ctx.openStore(cmd);
      const externalizer = new Externalizer({ store, config });
      const progress = ctx.progress(opts.dryRun ? "migrate (dry run)" : "migrate");
      let report;
      try {
        report = await migrateTranscript(path, {
          externalizer,
          session,
          dryRun: opts.dryRun === true,
          backup: opts.backup !== false,
          ...(opts.format ? { format: opts.format } : {}),
          onProgress: progress.update,
        });
      } finally {
        progress.stop();
      }
      await ctx.emit(MigrationReportSchema, report, async (r) => {
        const name = basename(r.path);
        if (r.dry_run) {
          await ctx.out(
            `migrate (dry run, nothing written): ${name}: would move ${formatCount(r.migrated)} of ${formatCount(r.tool_results)} tool results ` +
              `(${formatBytes(r.bytes_externalized)}) to the store; ${formatCount(r.already_referenced)} already referenced, ${formatCount(r.kept_inline)} stay inline\n`,
          );
        } else if (!r.changed) {
          await ctx.out(
            `migrate: ${name}: nothing to do (${formatCount(r.already_referenced)} tool results already referenced, ${formatCount(r.kept_inline)} small enough to stay inline)\n`,
          );
        } else {
          await ctx.out(
            `migrate: ${name}: moved ${formatCount(r.migrated)} of ${formatCount(r.tool_results)} tool results to the store (session ${r.session}); ` +
              `${formatBytes(r.bytes_before)} -> ${formatBytes(r.bytes_after)}${r.backup ? `; backup ${basename(r.backup)}` : ""}\n`,
          );
        }
        const kinds = Object.entries(r.redactions);
        if (kinds.length > 0)
          await ctx.out(`  redacted before storing: ${kinds.map(([k, n]) => `${k} x${n}`).join(", ")}\n`);
        for (const s of r.skipped) await ctx.err(`  kept inline, line ${s.line}: ${s.reason}\n`);
      });
    });
}
