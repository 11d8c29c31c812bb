import { VerifyReceiptSchema, receiptName } from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { formatCount, table } from "../format.js";
import { examples } from "./shared.js";

export function register(program: Command, ctx: CliContext): void {
  program
    .command("verify")
    .summary("check every blob's hash, record and reference; exit 5 when problems remain")
    .description(
      "Re-hash every blob and compare it with its id, and check every metadata record and reference. " +
        "Exits 5 when a problem remains unrepaired. --repair rebuilds missing or corrupt metadata from the content, " +
        "drops corrupt references and removes temp files; a corrupt blob is healed by stashing its original content again.",
    )
    .option("--repair", "fix what can be fixed")
    .addHelpText(
      "after",
      examples([
        ["aref verify", "report damaged blobs, records and references"],
        ["aref verify --repair --json", "repair, and print the verify receipt"],
      ]),
    )
    .action(async (opts: { repair?: boolean }, cmd: Command) => {
      const store = await ctx.openStore(cmd);
      const progress = ctx.progress("verify");
      let report;
      try {
        report = await store.verify({ repair: opts.repair === true, onProgress: progress.update });
      } finally {
        progress.stop();
      }
      const receipt = await ctx.emit(VerifyReceiptSchema, { schema: receiptName("verify"), ...report }, async (r) => {
        const unrepaired = r.problems.filter((p) => !p.repaired).length;
        if (r.problems.length === 0) {
          await ctx.out(`verify: ${formatCount(r.blobs_checked)} blobs checked, no problems\n`);
          return;
        }
        const rows = r.problems.map((p) => [
          p.repaired ? "repaired" : "PROBLEM",
          p.kind,
          p.artifact_id ? `art:${p.artifact_id.slice(0, 12)}` : "-",
          p.key,
          p.message,
        ]);
        await ctx.out(
          `${table(rows)}\nverify: ${formatCount(r.blobs_checked)} blobs checked, ${formatCount(r.problems.length)} problems, ${formatCount(r.repaired)} repaired, ${formatCount(unrepaired)} remaining\n`,
        );
        if (unrepaired > 0) {
          await ctx.err(
            "hint: `aref verify --repair` fixes metadata, references and temp files; a blob that fails its hash is healed by stashing its original content again (or removed with `aref rm <ref> --purge --yes`)\n",
          );
        }
      });
      if (!receipt.ok) ctx.exitCode = EXIT.INTEGRITY;
    });
}
