import { receiptName } from "@artifact-refs/schema";
import type { Command } from "commander";
import { z } from "zod";
import type { CliContext } from "../context.js";
import { formatCount } from "../format.js";
import { ENCODINGS, TOKENIZER_IMPLS, addCountOptions, countOptionsOf, type CountFlags } from "./count-options.js";
import { examples } from "./shared.js";
import { readTextInput } from "./tokens-input.js";

export const TokensReceiptSchema = z.object({
  schema: z.literal(receiptName("tokens")),
  source: z.string(),
  tokens: z.number().int().nonnegative(),
  chars: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  encoding: z.enum(ENCODINGS),
  impl: z.enum(TOKENIZER_IMPLS),
  model: z.string().optional(),
  /** Set when the model is unknown and the default encoding was used. */
  warning: z.string().optional(),
});

export function register(program: Command, ctx: CliContext): void {
  const command = program
    .command("tokens")
    .summary("count the tokens of a file or of standard input, for a model's encoding")
    .description(
      "Count tokens with tiktoken in the target model's encoding (o200k_base for gpt-4o, gpt-4.1, gpt-5, o1, o3, o4; " +
        "cl100k_base for gpt-4, gpt-3.5 and, with a warning, for unknown models). Special-token text counts as ordinary text. " +
        "Safe on any input: very long runs of one character are split before counting.",
    )
    .argument("[file]", "a UTF-8 text file; `-` or nothing reads standard input");
  addCountOptions(command, "tokenizer implementation (identical counts; gpt-tokenizer is the fastest)")
    .addHelpText(
      "after",
      examples([
        ["aref tokens prompt.txt --model gpt-4o", "tokens of a file for gpt-4o (o200k_base)"],
        ["make 2>&1 | aref tokens --json", "count a command's output; a JSON receipt"],
      ]),
    )
    .action(async (file: string | undefined, opts: CountFlags) => {
      const { countTokens, resolveEncoding } = await import("@artifact-refs/budget");
      const warnings: string[] = [];
      const countOptions = countOptionsOf(opts, warnings);
      const { encoding } = resolveEncoding(countOptions); // bad model in strict mode fails before reading
      const input = await readTextInput(file ?? "-", ctx.io, "tokens");
      const tokens = countTokens(input.text, countOptions);
      await ctx.emit(
        TokensReceiptSchema,
        {
          schema: receiptName("tokens"),
          source: input.source,
          tokens,
          chars: input.text.length,
          bytes: input.bytes,
          encoding,
          impl: opts.impl,
          ...(opts.model === undefined ? {} : { model: opts.model }),
          ...(warnings[0] === undefined ? {} : { warning: warnings[0] }),
        },
        async (r) => {
          if (r.warning) await ctx.err(`aref: warning: ${r.warning}\n`);
          await ctx.out(
            `${formatCount(r.tokens)} tokens (${r.encoding}, ${r.impl}) in ${formatCount(r.chars)} chars\n`,
          );
        },
      );
    });
}
