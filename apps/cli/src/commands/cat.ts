import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { REF_ARGUMENT_HELP, examples, sessionOf } from "./shared.js";

export function register(program: Command, ctx: CliContext): void {
  program
    .command("cat")
    .summary("write the whole artifact, byte-exact, to stdout")
    .description(
      "Write the whole artifact to stdout exactly as stored (no cap, no re-encoding), for pipes and scripts. " +
        "The bytes are integrity-checked first: a corrupt blob is an INTEGRITY error (exit 5) and nothing is written. " +
        "With --json only errors change (an error receipt on stdout); the content itself is never wrapped.",
    )
    .argument("<ref>", REF_ARGUMENT_HELP)
    .option("--session <id>", "resolve the ref within this session and require its reference to be live")
    .addHelpText(
      "after",
      examples([
        ["aref cat art:3f9b2a1c8e4d > build.log", "restore the exact bytes"],
        ["aref cat art:3f9b2a1c8e4d | grep -c ERROR", "pipe the whole artifact"],
      ]),
    )
    .action(async (ref: string, opts: { session?: string }, cmd: Command) => {
      const session = sessionOf(opts.session);
      const store = await ctx.openStore(cmd);
      const bytes = await store.get(ref, session === undefined ? {} : { session });
      await ctx.out(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    });
}
