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

function pct(part: number, whole: number): string {
  if (whole === 0) return "–";
  return `${((100 * part) / whole).toFixed(1)}%`;
}

function int(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

type Row = Pick<AnalyzeReport, keyof typeof Totals>;

function fileRow(name: string, r: Row): string {
  const peers = POLICY_NAMES.map(
    (n) => `${pct(r.policies[n].tokens, r.naive_tokens)} / ${pct(r.policies[n].cost, r.naive_cost)}`,
  );
  return (
    `| ${name} | ${r.calls} | ${int(r.naive_tokens)} | ${pct(r.floor_tokens, r.naive_tokens)} | ${pct(r.refs_tokens, r.naive_tokens)} | ` +
    `${pct(r.strategies.window.tokens, r.naive_tokens)} / ${pct(r.strategies.window.cost, r.naive_cost)} | ` +
    `${pct(r.strategies.append.tokens, r.naive_tokens)} / ${pct(r.strategies.append.cost, r.naive_cost)} | ` +
    `${peers.join(" | ")} | ${r.budget_violations} | ${r.rehydration_mismatches} |`
  );
}

/**
 * The markdown table: one row per file and a total. Every figure is a ratio to the naive
 * transcript under the same measure: raw input tokens / cache-weighted cost.
 */
export function formatAnalyzeTable(report: AnalyzeReport): string {
  const head =
    "| transcript | calls | naive tokens | floor | refs | window tokens / cost | append tokens / cost | " +
    `${POLICY_NAMES.join(" | ")} | budget violations | rehydration mismatches |`;
  const sep = `|---|---:|---:|---:|---:|---:|---:|${POLICY_NAMES.map(() => "---:").join("|")}|---:|---:|`;
  const lines = [head, sep];
  for (const f of report.files) lines.push(fileRow(f.file, f));
  if (report.files.length > 1) lines.push(fileRow(`**total (${report.files.length} files)**`, report));
  return lines.join("\n");
}

/** Per-call table of one file (what each call costs and how much of it is a cached prefix). */
export function formatTurnTable(report: AnalyzeReport, file: string): string {
  const lines = [
    "| call | msg | naive | refs | window | append | naive prefix | window prefix | append prefix | fetches | compacted | violations |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
  ];
  for (const t of report.turns.filter((x) => x.file === file)) {
    lines.push(
      `| ${t.call} | ${t.index} | ${int(t.naive_tokens)} | ${int(t.refs_tokens)} | ${int(t.window_tokens)} | ${int(t.append_tokens)} | ` +
        `${pct(t.naive_prefix_share, 1)} | ${pct(t.window_prefix_share, 1)} | ${pct(t.append_prefix_share, 1)} | ${t.fetches} | ${t.append_compacted ? "yes" : ""} | ${t.budget_violations} |`,
    );
  }
  return lines.join("\n");
}

/** One-paragraph summary against the targets. */
export function formatSummary(report: AnalyzeReport): string {
  const r = report;
  const bestPeerTokens = Math.min(...POLICY_NAMES.map((n) => r.policies[n].tokens));
  const bestPeerCost = Math.min(...POLICY_NAMES.map((n) => r.policies[n].cost));
  return [
    `${r.files.length} transcript(s), ${r.calls} model calls, ${int(r.naive_tokens)} naive input tokens; floor (system + task on every call) ${pct(r.floor_tokens, r.naive_tokens)}.`,
    `window: ${pct(r.strategies.window.tokens, r.naive_tokens)} of naive tokens (best peer ${pct(bestPeerTokens, r.naive_tokens)}); ` +
      `append: ${pct(r.strategies.append.cost, r.naive_cost)} of naive cache-weighted cost (best peer ${pct(bestPeerCost, r.naive_cost)}).`,
    `${r.externalized} outputs externalized, ${r.fetches} capped fetches counted, ${r.compactions} append compactions; ` +
      `${r.budget_violations} budget violations, ${r.rehydration_mismatches} rehydration mismatches.`,
    formatEvidence(r),
    ...r.files.flatMap((f) => (f.warnings ?? []).map((w) => `warning: ${w}`)),
  ].join("\n");
}

/** evidence_visible / evidence_reachable per strategy and peer policy (naive: 100% by definition). */
export function formatEvidence(r: Pick<AnalyzeReport, "evidence">): string {
  const series = ["window", "append", ...POLICY_NAMES];
  const terms = r.evidence.window?.terms ?? 0;
  const cells = series.map((s) => {
    const e = r.evidence[s];
    return e ? `${s} ${pct(e.visible, e.terms)} / ${pct(e.reachable, e.terms)}` : `${s} –`;
  });
  return `evidence_visible / evidence_reachable (${terms} terms the assistant wrote that first appeared in an earlier observation; naive 100% / 100%): ${cells.join(", ")}.`;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * A small self-contained SVG (no fonts fetched, no scripts): input tokens per call for naive,
 * refs, window and append, on a log scale, calls of all files one after another.
 */
export function renderAnalyzeSvg(report: AnalyzeReport): string {
  const W = 960;
  const H = 420;
  const L = 70;
  const R = 150;
  const T = 40;
  const B = 50;
  const turns = report.turns;
  const series: Array<{ key: keyof AnalyzeTurn; label: string; color: string }> = [
    { key: "naive_tokens", label: "naive", color: "#d62728" },
    { key: "refs_tokens", label: "refs (history + refs)", color: "#ff7f0e" },
    { key: "append_tokens", label: "append", color: "#1f77b4" },
    { key: "window_tokens", label: "window", color: "#2ca02c" },
    { key: "floor_tokens", label: "floor", color: "#7f7f7f" },
  ];
  const max = Math.max(10, ...turns.map((t) => t.naive_tokens));
  const positive = turns.flatMap((t) => series.map((s) => Number(t[s.key]))).filter((v) => v > 0);
  const lo = Math.min(
    10 ** Math.floor(Math.log10(Math.max(1, Math.min(max, ...positive)))),
    10 ** Math.floor(Math.log10(max)),
  );
  const y = (v: number) =>
    T + (H - T - B) * (1 - (Math.log10(Math.max(lo, v)) - Math.log10(lo)) / (Math.log10(max) - Math.log10(lo) || 1));
  const x = (i: number) => L + ((W - L - R) * i) / Math.max(1, turns.length - 1);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${L}" y="20" font-size="14">Input tokens per model call (log scale), ${esc(String(report.files.length))} transcript(s), ${turns.length} calls</text>`,
  ];
  for (let p = Math.ceil(Math.log10(lo)); p <= Math.log10(max); p++) {
    const v = 10 ** p;
    out.push(`<line x1="${L}" x2="${W - R}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${L - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${int(v)}</text>`);
  }
  let prevFile = "";
  turns.forEach((t, i) => {
    if (t.file !== prevFile && i > 0)
      out.push(`<line x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${T}" y2="${H - B}" stroke="#eee"/>`);
    prevFile = t.file;
  });
  for (const s of series) {
    const pts = turns.map((t, i) => `${x(i).toFixed(1)},${y(Number(t[s.key])).toFixed(1)}`).join(" ");
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${pts}"/>`);
  }
  series.forEach((s, k) => {
    const ly = T + 16 * k;
    out.push(
      `<line x1="${W - R + 10}" x2="${W - R + 30}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"/>`,
    );
    out.push(`<text x="${W - R + 35}" y="${ly + 4}">${esc(s.label)}</text>`);
  });
  out.push(
    `<text x="${(L + W - R) / 2}" y="${H - 15}" text-anchor="middle">model call (files one after another)</text>`,
  );
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
