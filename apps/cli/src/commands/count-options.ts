import type { CountOptions, Encoding, TokenizerImpl } from "@artifact-refs/budget";
import { Option, type Command } from "commander";

/*
 * The token-counting flags `aref tokens` and `aref budget check` share. Only types come from
 * @artifact-refs/budget here, so declaring the flags does not load the tokenizers: the
 * records below list the package's encodings and implementations in its order, and the
 * compiler checks they name each one exactly once.
 */
const ENCODING_NAMES: Record<Encoding, true> = { o200k_base: true, cl100k_base: true };
const IMPL_NAMES: Record<TokenizerImpl, true> = { tiktoken: true, "gpt-tokenizer": true, "js-tiktoken": true };

export const ENCODINGS = Object.keys(ENCODING_NAMES) as [Encoding, ...Encoding[]];
export const TOKENIZER_IMPLS = Object.keys(IMPL_NAMES) as [TokenizerImpl, ...TokenizerImpl[]];

export interface CountFlags {
  model?: string;
  encoding?: string;
  impl: TokenizerImpl;
  strict?: boolean;
}

/**
 * Declares --model, --encoding, --impl, then `between` (flags of the command itself), then --strict,
 * in the order `--help` lists them.
 */
export function addCountOptions(command: Command, implHelp: string, between: Option[] = []): Command {
  command
    .option("--model <name>", "target model (picks the encoding)")
    .addOption(new Option("--encoding <name>", "explicit encoding (wins over --model)").choices([...ENCODINGS]))
    .addOption(new Option("--impl <name>", implHelp).choices([...TOKENIZER_IMPLS]).default("tiktoken"));
  for (const option of between) command.addOption(option);
  return command.option("--strict", "an unknown --model is an error instead of a warning");
}

/** The countTokens / resolveEncoding options the flags ask for; warnings are collected in `warnings`. */
export function countOptionsOf(
  flags: CountFlags,
  warnings: string[],
): CountOptions & { impl: TokenizerImpl; strict: boolean } {
  return {
    ...(flags.model === undefined ? {} : { model: flags.model }),
    ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }),
    impl: flags.impl,
    strict: flags.strict === true,
    onWarning: (w: string) => void warnings.push(w),
  };
}
