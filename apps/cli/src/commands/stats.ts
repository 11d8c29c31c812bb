import { StatsReceiptSchema, receiptName } from "@artifact-refs/schema";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { formatBytes, formatCount, table } from "../format.js";
import { examples } from "./shared.js";

export function register(program: Command, ctx: CliContext): void {
  program
    .command("stats")
    .summary("count blobs, bytes, references and sessions; the dedupe ratio")
    .addHelpText(
      "after",
      examples([
        ["aref stats", "the store's size"],
        ["aref stats --json | jq .dedupe_ratio", "bytes saved by dedupe"],
      ]),
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const store = await ctx.openStore(cmd);
      const stats = await store.stats();
      await ctx.emit(StatsReceiptSchema, { schema: receiptName("stats"), ...stats }, (r) =>
        ctx.out(
          `${table([
            ["blobs", formatCount(r.blobs)],
            ["bytes", `${formatBytes(r.bytes)} (${formatCount(r.bytes)})`],
            ["references", formatCount(r.references)],
            ["sessions", formatCount(r.sessions)],
            ["logical bytes", `${formatBytes(r.logical_bytes)} (${formatCount(r.logical_bytes)})`],
            ["dedupe ratio", String(r.dedupe_ratio)],
          ])}\n`,
        ),
      );
    });
}
