/** `aref budget check` itself: loaded (with @artifact-refs/budget) only when the command runs. */
import {
  BUDGET_LIMITS,
  BudgetConfigSchema,
  PromptBudgetInputSchema,
  checkPromptBudget,
  loadBudgetConfig,
  resolveEncoding,
  type PromptBudgetInput,
} from "@artifact-refs/budget";
import { ArefError, BudgetViolationSchema, formatIssues, receiptName } from "@artifact-refs/schema";
import { z } from "zod";
import type { CliContext } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { formatCount } from "../format.js";
import { countOptionsOf, type CountFlags } from "./count-options.js";
import { readTextInput } from "./tokens-input.js";
import { BUDGET_FLAGS } from "./budget-flags.js";

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
  /** Where maxPromptTokens came from when --model set it (its context window less its longest answer). */
  prompt_budget_from: z.string().optional(),
  warnings: z.array(z.string()),
});

export interface BudgetCheckOptions extends CountFlags {
  format: "auto" | "text" | "json";
  maxHotStateTokens?: string;
  maxArtifactIndexEntries?: string;
  maxPromptTokens?: string;
  maxRagChunks?: string;
  maxInlineArtifactChars?: string;
}

/** The environment with each given flag in place of its variable (same validation, flags win). */
function withFlags(
  env: Record<string, string | undefined>,
  opts: BudgetCheckOptions,
): Record<string, string | undefined> {
  const out = { ...env };
  for (const [flag, variable] of BUDGET_FLAGS) {
    const key = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof BudgetCheckOptions;
    const value = opts[key];
    if (value === undefined) continue;
    if (typeof value !== "string" || !/^[0-9]+$/.test(value.trim())) {
      throw new ArefError("INVALID_INPUT", `--${flag} ${JSON.stringify(value)} is not a whole number`, {
        hint: `e.g. --${flag} 8000`,
      });
    }
    out[variable] = value.trim();
  }
  return out;
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

/**
 * The prompt budget of a known model: its context window less the longest answer it may give
 * (tokenlens' bundled models.dev catalog, no network). Undefined for an unknown model.
 */
async function modelPromptBudget(model: string | undefined): Promise<{ tokens: number; from: string } | undefined> {
  if (model === undefined) return undefined;
  const { getContextWindow } = await import("tokenlens");
  const window = getContextWindow(model);
  const total = window.inputMax ?? window.combinedMax ?? window.totalMax;
  if (total === undefined) return undefined;
  const answer = window.inputMax === undefined ? (window.outputMax ?? 0) : 0;
  const tokens = Math.min(BUDGET_LIMITS.maxPromptTokens, Math.max(1, total - answer));
  return {
    tokens,
    from: `${model}'s context window (${formatCount(total)} tokens${answer > 0 ? `, less ${formatCount(answer)} for the answer` : ""})`,
  };
}

export async function budgetCheck(ctx: CliContext, file: string, opts: BudgetCheckOptions): Promise<void> {
  // --model sets the default prompt budget; --max-prompt-tokens or AREF_MAX_PROMPT_TOKENS still override it
  const env = withFlags(ctx.io.env, opts);
  const fromModel = await modelPromptBudget(opts.model);
  const budgets = loadBudgetConfig(env, fromModel === undefined ? {} : { maxPromptTokens: fromModel.tokens });
  const promptBudgetFrom = fromModel !== undefined && !env.AREF_MAX_PROMPT_TOKENS ? fromModel.from : undefined;
  const warnings: string[] = [];
  const countOptions = countOptionsOf(opts, warnings);
  resolveEncoding(countOptions);
  const input = await readTextInput(file, ctx.io, "budget check");
  const report = checkPromptBudget(promptInput(input.text, input.source, opts.format), {
    ...countOptions,
    config: budgets,
  });
  const measurements: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(report.measurements))
    if (key !== "reasons" && value !== undefined) measurements[key] = value as number | null;
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
      ...(promptBudgetFrom === undefined ? {} : { prompt_budget_from: promptBudgetFrom }),
      warnings: [...new Set(warnings)],
    },
    async (r) => {
      for (const w of r.warnings) await ctx.err(`aref: warning: ${w}\n`);
      const measured = Object.entries(r.measurements)
        .map(([k, v]) => `${k} ${v === null ? "unknown" : formatCount(v)}`)
        .join(", ");
      if (r.prompt_budget_from)
        await ctx.err(
          `aref: prompt budget ${formatCount(r.budgets.maxPromptTokens)} tokens, from ${r.prompt_budget_from}\n`,
        );
      if (r.ok) await ctx.out(`within budget (${r.encoding}): ${measured}\n`);
      else {
        await ctx.out(
          `${r.violations.length} budget violation${r.violations.length === 1 ? "" : "s"} (${r.encoding}):\n`,
        );
        for (const v of r.violations) await ctx.out(`  ${v.budget}: ${v.message}\n`);
      }
    },
  );
  if (!report.ok) ctx.exitCode = EXIT.TOO_LARGE;
}
