import { RmReceiptSchema, receiptName } from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { DEFAULT_SESSION, examples, sessionOf } from "./shared.js";

interface RmOptions {
  session: string;
  purge?: boolean;
  yes?: boolean;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command("rm")
    .summary("drop a session's reference (or, with --purge --yes, delete the artifact everywhere)")
    .description(
      "Drop a session's reference to an artifact. The content stays until `aref gc` finds no live reference to it. " +
        "With --purge (and --yes to confirm), delete the content, its metadata and every session's reference now.",
    )
    .argument("<ref>", "the artifact (short ref, prefix, id or handle); resolved within --session unless --purge")
    .option("--session <id>", "the session whose reference is dropped", DEFAULT_SESSION)
    .option("--purge", "delete the content and every reference to it, in every session")
    .option("--yes", "confirm --purge")
    .addHelpText(
      "after",
      examples([
        ["aref rm art:3f9b2a1c8e4d --session s1", "session s1 no longer references it"],
        ["aref rm art:3f9b2a1c8e4d --purge --yes", "delete it from the store outright"],
      ]),
    )
    .action(async (ref: string, opts: RmOptions, cmd: Command) => {
      if (opts.yes && !opts.purge)
        throw new UsageError(
          "--yes only confirms --purge",
          "drop it, or add --purge to delete the artifact everywhere",
        );
      if (opts.purge && !opts.yes) {
        throw new UsageError(
          "--purge deletes the artifact's content and every session's reference to it, and cannot be undone",
          `add --yes to confirm: aref rm ${ref} --purge --yes`,
        );
      }
      const store = await ctx.openStore(cmd);
      if (opts.purge) {
        const purged = await store.purge(ref);
        await ctx.emit(
          RmReceiptSchema,
          {
            schema: receiptName("rm"),
            artifact_id: purged.id,
            references_removed: purged.referencesRemoved,
            blob_removed: purged.blobRemoved,
          },
          (r) =>
            ctx.out(
              `purged ${r.artifact_id.slice(0, 12)}: content ${r.blob_removed ? "deleted" : "was already gone"}, ${r.references_removed} reference(s) removed\n`,
            ),
        );
        return;
      }
      const session = sessionOf(opts.session)!;
      await store.listReferences(session, { includeExpired: true }); // UNKNOWN_SESSION when it holds nothing
      const id = await store.resolve(ref, { session });
      const removed = await store.removeReference(session, id);
      await ctx.emit(
        RmReceiptSchema,
        {
          schema: receiptName("rm"),
          artifact_id: id,
          session,
          references_removed: removed ? 1 : 0,
          blob_removed: false,
        },
        (r) =>
          ctx.out(
            r.references_removed > 0
              ? `removed session ${session}'s reference to art:${id.slice(0, 12)} (the content stays until \`aref gc\` finds it unreferenced)\n`
              : `session ${session} no longer referenced art:${id.slice(0, 12)}\n`,
          ),
      );
    });
}
