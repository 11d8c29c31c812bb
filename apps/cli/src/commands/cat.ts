import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { REF_ARGUMENT_HELP, examples, sessionOf } from "./shared.js";

export function register(program: Command, ctx: CliContext): void {
  program
    .command("cat")
    .summary("write the whole artifact, byte-exact, to stdout")
    .description(
      "Write the whole artifact to stdout exactly as stored (no cap, no re-encoding), for pipes and scripts, streamed with bounded memory at any size. " +
        "The bytes are integrity-checked first: a corrupt blob is an INTEGRITY error (exit 5) and nothing is written. " +
        "A chunked artifact (over 512 KiB) is checked chunk by chunk before each is written, and as a whole at the end (INTEGRITY, exit 5, if the whole does not match its id). " +
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
      const stream = await store.getStream(ref, session === undefined ? {} : { session });
      for await (const part of stream) await ctx.out(part as Buffer);
    });
}
