import { CutSchema, HotStateSchema, receiptName } from "@artifact-refs/schema";
import type { Command } from "commander";
import { z } from "zod";
import type { CliContext } from "../context.js";
import { formatBytes, formatCount } from "../format.js";
import { DEFAULT_SESSION, examples, sessionOf } from "./shared.js";

export const HotStateReceiptSchema = z.object({
  schema: z.literal(receiptName("hot-state")),
  session: z.string(),
  state: HotStateSchema,
  /** The exact bytes a prompt carries (canonical JSON). */
  json: z.string(),
  tokens: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  truncated: z.boolean(),
  cuts: z.array(CutSchema),
  steps: z.array(z.string()),
  limits: z.object({ maxTokens: z.number().int(), maxEntries: z.number().int() }),
});

interface ShowOptions {
  session?: string;
  model?: string;
  objective?: string;
  pin?: string[];
  raw?: boolean;
}

export function register(program: Command, ctx: CliContext): void {
  const hotState = program
    .command("hot-state")
    .summary("show the hot state a session's artifacts give (capped, as a prompt carries it)");
  hotState
    .command("show")
    .summary("build and print a session's hot state: index of its artifacts within the caps, and what was cut")
    .description(
      "Build the hot state of a session from its artifact references: at most 20 index entries (pinned, then most recently " +
        "referenced, then newest) and 1,000 tokens (AREF_MAX_ARTIFACT_INDEX_ENTRIES, AREF_MAX_HOT_STATE_TOKENS), with short refs, " +
        "in deterministic JSON. Everything left out is listed with how to get it back.",
    )
    .option("--session <id>", `the session (default: ${DEFAULT_SESSION})`)
    .option("--model <name>", "target model (picks the encoding the tokens are counted in)")
    .option("--objective <text>", "an objective to show in the state")
    .option("--pin <ref...>", "artifacts to keep in the index first")
    .option("--raw", "print only the exact JSON bytes the prompt carries")
    .addHelpText(
      "after",
      examples([
        ["aref hot-state show --session s1", "the session's hot state, tokens and cuts"],
        ["aref hot-state show --session s1 --raw | wc -c", "the exact bytes"],
        ["aref hot-state show --session s1 --json | jq .cuts", "what did not fit"],
      ]),
    )
    .action(async (opts: ShowOptions, cmd: Command) => {
      const session = sessionOf(opts.session) ?? DEFAULT_SESSION;
      const [{ loadBudgetConfig }, { sessionHotState }] = await Promise.all([
        import("@artifact-refs/budget"),
        import("@artifact-refs/hot-state"),
      ]);
      const config = loadBudgetConfig(ctx.io.env);
      const store = await ctx.openStore(cmd);
      const built = await sessionHotState(store, session, {
        config,
        ...(opts.model === undefined
          ? {}
          : { model: opts.model, onWarning: (w: string) => void ctx.err(`aref: warning: ${w}\n`) }),
        ...(opts.objective === undefined ? {} : { state: { objective: opts.objective } }),
        ...(opts.pin === undefined ? {} : { pinned: opts.pin }),
      });
      await ctx.emit(
        HotStateReceiptSchema,
        {
          schema: receiptName("hot-state"),
          session,
          state: built.state,
          json: built.json,
          tokens: built.tokens,
          bytes: built.bytes,
          truncated: built.truncated,
          cuts: built.cuts,
          steps: built.steps,
          limits: built.limits,
        },
        async (r) => {
          if (opts.raw) {
            await ctx.out(r.json);
            return;
          }
          const entries = r.state.artifact_index?.length ?? 0;
          await ctx.out(`${JSON.stringify(r.state, null, 2)}\n`);
          await ctx.out(
            `\n${formatCount(r.tokens)} of ${formatCount(r.limits.maxTokens)} tokens, ${formatBytes(r.bytes)}, ${entries} of at most ${r.limits.maxEntries} index entries${r.truncated ? "; truncated:" : ""}\n`,
          );
          for (const cut of r.cuts)
            await ctx.out(`  - ${cut.what}: ${cut.reason}${cut.recover ? ` (${cut.recover})` : ""}\n`);
        },
      );
    });
}
