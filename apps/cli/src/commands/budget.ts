import { Option, type Command } from "commander";
import type { CliContext } from "../context.js";
import type { BudgetCheckOptions } from "./budget-check.js";
import { BUDGET_FLAGS } from "./budget-flags.js";
import { addCountOptions } from "./count-options.js";
import { examples } from "./shared.js";

export function register(program: Command, ctx: CliContext): void {
  const budget = program
    .command("budget")
    .summary("check prompts against the budgets (hot state, index, prompt, RAG chunks, inline artifacts)");
  const check = budget
    .command("check")
    .summary("list every budget a prompt violates; exit 6 when any is")
    .description(
      "Count a prompt and check it against the budgets (defaults: hot state 1,000 tokens, artifact index 20 entries, prompt 8,000 tokens, " +
        "10 RAG chunks, 2,000 inline chars; AREF_MAX_HOT_STATE_TOKENS, AREF_MAX_ARTIFACT_INDEX_ENTRIES, AREF_MAX_PROMPT_TOKENS, " +
        "AREF_MAX_RAG_CHUNKS, AREF_MAX_INLINE_ARTIFACT_CHARS override them, and the flags --max-hot-state-tokens, --max-artifact-index-entries, --max-prompt-tokens, --max-rag-chunks, --max-inline-artifact-chars override those). Every violation is listed. Fail closed: a part that " +
        "cannot be counted is a violation. A .json file is read as the prompt's parts ({system, hot_state, messages, rag_chunks, " +
        "inline_artifacts}); any other file is one prompt text. Exit 0 within budget, 6 over it.",
    )
    .argument("<prompt-file>", "the prompt: a text file, a JSON file of its parts, or - for standard input");
  addCountOptions(check, "tokenizer implementation", [
    new Option("--format <kind>", "how to read the file (auto: .json files are parts, others text)")
      .choices(["auto", "text", "json"])
      .default("auto"),
    ...BUDGET_FLAGS.map(([flag, , what]) => new Option(`--${flag} <n>`, `${what} (overrides the environment)`)),
  ])
    .addHelpText(
      "after",
      examples([
        [
          "aref budget check prompt.txt --model gpt-4o",
          "is this prompt within gpt-4o's context window (less its longest answer)?",
        ],
        ["aref budget check turn.json --json", "every violation of a structured prompt, as a receipt"],
        ["aref budget check prompt.txt --max-prompt-tokens 32000", "with a larger prompt budget"],
        ["AREF_MAX_PROMPT_TOKENS=32000 aref budget check prompt.txt", "the same from the environment"],
      ]),
    )
    .action(async (file: string, opts: BudgetCheckOptions) => {
      const { budgetCheck } = await import("./budget-check.js");
      await budgetCheck(ctx, file, opts);
    });
}
