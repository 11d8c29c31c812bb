import { DEFAULT_GC_GRACE_MS } from "@artifact-refs/store";
import { type GcReceipt, GcReceiptSchema, receiptName, toShortRef } from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { formatBytes, formatCount } from "../format.js";
import { parseDurationOrZero } from "../parse-options.js";
import { examples } from "./shared.js";

/** Removed artifacts listed by the human output (the receipt lists them all, and every swept blob). */
const SHOW_ARTIFACTS = 20;

/**
 * The artifacts a run removed (or would), by short ref. Only artifacts are named: a chunked artifact's manifest
 * and chunks are blobs without a ref of their own, counted in the first line and listed in the receipt's `swept`.
 */
function artifactLines(r: GcReceipt): string {
  const ids = r.artifacts_swept ?? [];
  const verb = r.dry_run ? "would remove" : "removed";
  if (ids.length === 0)
    return r.blobs_swept > 0 ? `${verb} no artifact (the swept blobs were parts no artifact holds)\n` : "";
  return (
    `${verb} ${formatCount(ids.length)} ${ids.length === 1 ? "artifact" : "artifacts"}:\n` +
    ids
      .slice(0, SHOW_ARTIFACTS)
      .map((id) => `  ${toShortRef(id)}\n`)
      .join("") +
    (ids.length > SHOW_ARTIFACTS
      ? `  … and ${formatCount(ids.length - SHOW_ARTIFACTS)} more (--json lists them all in artifacts_swept)\n`
      : "")
  );
}

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
            artifactLines(r),
        ),
      );
    });
}
