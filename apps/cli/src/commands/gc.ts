import { DEFAULT_GC_GRACE_MS } from "@artifact-refs/store";
import { GcReceiptSchema, receiptName } from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { formatBytes, formatCount } from "../format.js";
import { parseDurationOrZero } from "../parse-options.js";
import { examples } from "./shared.js";

/** Swept blobs listed by the human output (the receipt lists all). */
const SHOW_SWEPT = 20;

export function register(program: Command, ctx: CliContext): void {
  program
    .command("gc")
    .summary("delete expired references, the blobs no live reference holds and session records past retention")
    .description(
      "Mark and sweep: delete expired references, then every blob no live reference holds that is older than the grace " +
        `period (default ${DEFAULT_GC_GRACE_MS / 60_000} minutes, so content being stashed right now is never swept), and leftovers of interrupted writes.`,
    )
    .option("--dry-run", "report what would be deleted, delete nothing")
    .option("--grace <duration>", "keep unreferenced blobs younger than this: 0, 30s, 10m, 1h", parseDurationOrZero)
    .addHelpText(
      "after",
      examples([
        ["aref gc --dry-run", "what a sweep would delete"],
        ["aref gc --grace 0", "sweep every unreferenced blob now (no concurrent writer must be running)"],
      ]),
    )
    .action(async (opts: { dryRun?: boolean; grace?: number }, cmd: Command) => {
      const store = await ctx.openStore(cmd, opts.grace === undefined ? {} : { gcGraceMs: opts.grace });
      const progress = ctx.progress("gc");
      let report;
      try {
        report = await store.gc({
          dryRun: opts.dryRun === true,
          ...(opts.grace === undefined ? {} : { graceMs: opts.grace }),
          onProgress: progress.update,
        });
      } finally {
        progress.stop();
      }
      await ctx.emit(GcReceiptSchema, { schema: receiptName("gc"), ...report }, (r) =>
        ctx.out(
          `${r.dry_run ? "gc (dry run, nothing deleted): would sweep" : "gc: swept"} ${formatCount(r.blobs_swept)} of ${formatCount(r.blobs_scanned)} blobs ` +
            `(${formatBytes(r.bytes_freed)}), ${r.dry_run ? "would expire" : "expired"} ${formatCount(r.references_expired)} references, ` +
            `${r.dry_run ? "would remove" : "removed"} ${formatCount(r.temp_files_removed)} temp files` +
            (r.records_removed === undefined
              ? ""
              : ` and ${formatCount(r.records_removed)} session records (executions, chat turns, metrics)`) +
            "\n" +
            r.swept
              .slice(0, SHOW_SWEPT)
              .map((id) => `  ${r.dry_run ? "would sweep" : "swept"} art:${id.slice(0, 12)}\n`)
              .join("") +
            (r.swept.length > SHOW_SWEPT
              ? `  … and ${formatCount(r.swept.length - SHOW_SWEPT)} more (--json lists them all)\n`
              : ""),
        ),
      );
    });
}
