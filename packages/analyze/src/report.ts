import { z } from "zod";
import { POLICY_NAMES, type PolicyName } from "./policies/types.js";
import type { ReplayReport, SeriesFigures, TurnReport } from "./replay.js";
import { resolvePriceModel } from "@artifact-refs/context";

export const ANALYZE_SCHEMA = "artifact-refs.analyze.v1";

const Count = z.number().int().nonnegative();
const Cost = z.number().nonnegative();
const Share = z.number().min(0).max(1);
const Figures = z.object({ tokens: z.number().nonnegative(), cost: Cost });
const PolicyFigures = z.object(
  Object.fromEntries(POLICY_NAMES.map((n) => [n, Figures])) as Record<PolicyName, typeof Figures>,
);

/** The baselines reported for every call and every total: without and with artifact-refs, and the floor. */
const BaselineTokens = { naive_tokens: Count, refs_tokens: Count, floor_tokens: Count };
const BaselineCosts = { naive_cost: Cost, refs_cost: Cost };

export const AnalyzeTurnSchema = z.object({
  file: z.string(),
  call: z.number().int().positive(),
  index: Count,
  ...BaselineTokens,
  window_tokens: Count,
  append_tokens: Count,
  ...BaselineCosts,
  window_cost: Cost,
  append_cost: Cost,
  naive_prefix_share: Share,
  refs_prefix_share: Share,
  window_prefix_share: Share,
  append_prefix_share: Share,
  append_compacted: z.boolean(),
  fetches: Count,
  budget_violations: Count,
  policies: PolicyFigures,
});
export type AnalyzeTurn = z.infer<typeof AnalyzeTurnSchema>;

const Totals = {
  calls: Count,
  messages: Count,
  ...BaselineTokens,
  ...BaselineCosts,
  strategies: z.object({ window: Figures, append: Figures }),
  policies: PolicyFigures,
  externalized: Count,
  fetches: Count,
  compactions: Count,
  rehydration_mismatches: Count,
  budget_violations: Count,
  /** Per series (window, append, each peer policy): evidence terms, visible in the prompt, reachable from it. */
  evidence: z.record(z.string(), z.object({ terms: Count, visible: Count, reachable: Count })),
};

export const AnalyzeFileSchema = z.object({
  file: z.string(),
  format: z.string(),
  warnings: z.array(z.string()).optional(),
  ...Totals,
});
export type AnalyzeFile = z.infer<typeof AnalyzeFileSchema>;

/** `aref analyze --json`: totals over every file, each file's totals, and every call. */
export const AnalyzeReportSchema = z.object({
  schema: z.literal(ANALYZE_SCHEMA),
  settings: z.object({
    max_prompt_tokens: z.number().int().positive(),
    fetch_chars: z.number().int().positive(),
    keep_turns: z.number().int().positive(),
    encoding: z.string(),
    append_compaction: z.enum(["budget", "cost"]),
    price_model: z.string().optional(),
    cached_price: z.number(),
    uncached_price: z.number(),
  }),
  ...Totals,
  files: z.array(AnalyzeFileSchema),
  turns: z.array(AnalyzeTurnSchema),
});
export type AnalyzeReport = z.infer<typeof AnalyzeReportSchema>;

export interface FileResult {
  file: string;
  format: string;
  warnings?: string[];
  report: ReplayReport;
}

function totalsOf(r: ReplayReport) {
  return {
    calls: r.calls,
    messages: r.messages,
    naive_tokens: r.naive_tokens,
    refs_tokens: r.refs_tokens,
    floor_tokens: r.floor_tokens,
    naive_cost: round(r.naive_cost),
    refs_cost: round(r.refs_cost),
    strategies: { window: fig(r.strategies.window), append: fig(r.strategies.append) },
    policies: Object.fromEntries(POLICY_NAMES.map((n) => [n, fig(r.policies[n])])) as Record<PolicyName, SeriesFigures>,
    externalized: r.externalized,
    fetches: r.fetches,
    compactions: r.compactions,
    rehydration_mismatches: r.rehydration_mismatches,
    budget_violations: r.budget_violations,
    evidence: r.evidence,
  };
}

function fig(f: SeriesFigures): SeriesFigures {
  return { tokens: f.tokens, cost: round(f.cost) };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function turnOf(file: string, { evidence: _evidence, ...t }: TurnReport): AnalyzeTurn {
  return {
    file,
    ...t,
    naive_cost: round(t.naive_cost),
    refs_cost: round(t.refs_cost),
    window_cost: round(t.window_cost),
    append_cost: round(t.append_cost),
    naive_prefix_share: round3(t.naive_prefix_share),
    refs_prefix_share: round3(t.refs_prefix_share),
    window_prefix_share: round3(t.window_prefix_share),
    append_prefix_share: round3(t.append_prefix_share),
    policies: Object.fromEntries(POLICY_NAMES.map((n) => [n, fig(t.policies[n])])) as Record<PolicyName, SeriesFigures>,
  };
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export interface ReportSettings {
  maxPromptTokens: number;
  fetchChars: number;
  keepTurns: number;
  encoding: string;
  appendCompaction?: "budget" | "cost";
  priceModel?: string;
}

/** Builds the `--json` report (validated against AnalyzeReportSchema). */
export function buildAnalyzeReport(
  files: readonly FileResult[],
  total: ReplayReport,
  settings: ReportSettings,
): AnalyzeReport {
  const prices = resolvePriceModel(settings.priceModel);
  const report: AnalyzeReport = {
    schema: ANALYZE_SCHEMA,
    settings: {
      max_prompt_tokens: settings.maxPromptTokens,
      fetch_chars: settings.fetchChars,
      keep_turns: settings.keepTurns,
      encoding: settings.encoding,
      append_compaction: settings.appendCompaction ?? "cost",
      price_model: prices.name,
      cached_price: prices.cachedRead,
      uncached_price: prices.write,
    },
    ...totalsOf(total),
    files: files.map((f) => ({
      file: f.file,
      format: f.format,
      ...(f.warnings ? { warnings: f.warnings } : {}),
      ...totalsOf(f.report),
    })),
    turns: files.flatMap((f) => f.report.turns.map((t) => turnOf(f.file, t))),
  };
  return AnalyzeReportSchema.parse(report);
}
