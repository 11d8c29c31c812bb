import {
  BudgetConfigSchema,
  ENCODINGS,
  PromptBudgetInputSchema,
  TOKENIZER_IMPLS,
  checkPromptBudget,
  loadBudgetConfig,
  resolveEncoding,
  type PromptBudgetInput,
  type TokenizerImpl,
} from "@artifact-refs/budget";
import { ArefError, BudgetViolationSchema, formatIssues, receiptName } from "@artifact-refs/schema";
import { Option, type Command } from "commander";
import { z } from "zod";
import type { CliContext } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { formatCount } from "../format.js";
import { examples } from "./shared.js";
import { readTextInput } from "./tokens-input.js";

export const BudgetCheckReceiptSchema = z.object({
  schema: z.literal(receiptName("budget-check")),
  source: z.string(),
  ok: z.boolean(),
  /** Every violation, never only the first. */
  violations: z.array(BudgetViolationSchema),
  measurements: z.record(z.string(), z.number().nullable()),
  /** Tokens of each part of the prompt (null: could not be counted, so the budget failed closed). */
  parts: z.record(z.string(), z.number().nullable()),
  errors: z.array(z.string()),
  encoding: z.string(),
  budgets: BudgetConfigSchema,
  warnings: z.array(z.string()),
});

interface BudgetCheckOptions {
  model?: string;
  encoding?: string;
  impl: TokenizerImpl;
  strict?: boolean;
  format: "auto" | "text" | "json";
}

function promptInput(text: string, source: string, format: BudgetCheckOptions["format"]): PromptBudgetInput {
  const structured = format === "json" || (format === "auto" && /\.json$/i.test(source));
  if (!structured) return { prompt: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ArefError("INVALID_INPUT", `${source} is not valid JSON: ${(error as Error).message}`, {
      hint: "give a JSON prompt ({system, hot_state, messages, rag_chunks, inline_artifacts}) or use --format text to count the file as one prompt",
    });
  }
  const parsed = PromptBudgetInputSchema.safeParse(value);
  if (!parsed.success) {
    throw new ArefError("INVALID_INPUT", `invalid prompt file ${source}: ${formatIssues(parsed.error)}`, {
      hint: "fields: prompt, system, hot_state (object or JSON text), messages [{role, content}], rag_chunks [text], inline_artifacts [text], artifact_index_entries",
    });
  }
  return parsed.data;
}

export function register(program: Command, ctx: CliContext): void {
  const budget = program.command("budget").summary("check prompts against the budgets (hot state, index, prompt, RAG chunks, inline artifacts)");
  budget
    .command("check")
    .summary("list every budget a prompt violates; exit 6 when any is")
    .description(
      "Count a prompt and check it against the budgets (defaults: hot state 1,000 tokens, artifact index 20 entries, prompt 8,000 tokens, " +
        "10 RAG chunks, 2,000 inline chars; AREF_MAX_HOT_STATE_TOKENS, AREF_MAX_ARTIFACT_INDEX_ENTRIES, AREF_MAX_PROMPT_TOKENS, " +
        "AREF_MAX_RAG_CHUNKS, AREF_MAX_INLINE_ARTIFACT_CHARS override them). Every violation is listed. Fail closed: a part that " +
        "cannot be counted is a violation. A .json file is read as the prompt's parts ({system, hot_state, messages, rag_chunks, " +
        "inline_artifacts}); any other file is one prompt text. Exit 0 within budget, 6 over it.",
    )
    .argument("<prompt-file>", "the prompt: a text file, a JSON file of its parts, or - for standard input")
    .option("--model <name>", "target model (picks the encoding)")
    .addOption(new Option("--encoding <name>", "explicit encoding (wins over --model)").choices([...ENCODINGS]))
    .addOption(new Option("--impl <name>", "tokenizer implementation").choices([...TOKENIZER_IMPLS]).default("tiktoken"))
    .addOption(new Option("--format <kind>", "how to read the file (auto: .json files are parts, others text)").choices(["auto", "text", "json"]).default("auto"))
    .option("--strict", "an unknown --model is an error instead of a warning")
    .addHelpText(
      "after",
      examples([
        ["aref budget check prompt.txt --model gpt-4o", "is this prompt within 8,000 tokens?"],
        ["aref budget check turn.json --json", "every violation of a structured prompt, as a receipt"],
        ["AREF_MAX_PROMPT_TOKENS=32000 aref budget check prompt.txt", "with a larger prompt budget"],
      ]),
    )
    .action(async (file: string, opts: BudgetCheckOptions) => {
      const budgets = loadBudgetConfig(ctx.io.env);
      const warnings: string[] = [];
      const countOptions = {
        ...(opts.model === undefined ? {} : { model: opts.model }),
        ...(opts.encoding === undefined ? {} : { encoding: opts.encoding }),
        impl: opts.impl,
        strict: opts.strict === true,
        onWarning: (w: string) => void warnings.push(w),
      };
      resolveEncoding(countOptions);
      const input = await readTextInput(file, ctx.io, "budget check");
      const report = checkPromptBudget(promptInput(input.text, input.source, opts.format), { ...countOptions, config: budgets });
      const measurements: Record<string, number | null> = {};
      for (const [key, value] of Object.entries(report.measurements)) if (key !== "reasons" && value !== undefined) measurements[key] = value as number | null;
      await ctx.emit(
        BudgetCheckReceiptSchema,
        {
          schema: receiptName("budget-check"),
          source: input.source,
          ok: report.ok,
          violations: report.violations,
          measurements,
          parts: report.parts,
          errors: report.errors,
          encoding: report.encoding,
          budgets,
          warnings: [...new Set(warnings)],
        },
        async (r) => {
          for (const w of r.warnings) await ctx.err(`aref: warning: ${w}\n`);
          const measured = Object.entries(r.measurements)
            .map(([k, v]) => `${k} ${v === null ? "unknown" : formatCount(v)}`)
            .join(", ");
          if (r.ok) await ctx.out(`within budget (${r.encoding}): ${measured}\n`);
          else {
            await ctx.out(`${r.violations.length} budget violation${r.violations.length === 1 ? "" : "s"} (${r.encoding}):\n`);
            for (const v of r.violations) await ctx.out(`  ${v.budget}: ${v.message}\n`);
          }
        },
      );
      if (!report.ok) ctx.exitCode = EXIT.TOO_LARGE;
    });
}
