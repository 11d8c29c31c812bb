import { POLICY_NAMES, type PolicyName } from "./policies/types.js";
import type { AnalyzeFile, AnalyzeReport } from "./report.js";
import { displayWidth, fitTable, markdownTable, shortenToWidth, wrapText, type TextColumn } from "./text-table.js";

/** Widest line of the default (terminal) tables and text. */
export const ANALYZE_TEXT_WIDTH = 100;

export interface AnalyzeTextOptions {
  /** Every column, one decimal, as a markdown table (default: the columns that fit `width`). */
  wide?: boolean;
  /** Widest line of the default output (default 100). */
  width?: number;
}

/** Column headers of the peer policies in the default table (the key under it spells them out). */
export const PEER_SHORT_NAMES: Record<PolicyName, string> = {
  deepagents: "deepag",
  claude_code: "claude",
  anthropic_clear: "a.clear",
  swe_agent_last5: "swe5",
};

type Row = Pick<
  AnalyzeFile,
  | "calls"
  | "naive_tokens"
  | "naive_cost"
  | "floor_tokens"
  | "refs_tokens"
  | "strategies"
  | "policies"
  | "budget_violations"
  | "rehydration_mismatches"
>;

function pct(part: number, whole: number): string {
  if (whole === 0) return "–";
  return `${((100 * part) / whole).toFixed(1)}%`;
}

function int(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

const compactNumber = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** Whole percent of naive, tokens/cost: `11/38`. */
function pair(tokens: number, cost: number, r: Row): string {
  const whole = (part: number, of: number) => (of === 0 ? "–" : String(Math.round((100 * part) / of)));
  return `${whole(tokens, r.naive_tokens)}/${whole(cost, r.naive_cost)}`;
}

function rowsOf(report: AnalyzeReport): Array<{ name: string; row: Row }> {
  const rows = report.files.map((f) => ({ name: f.file, row: f as Row }));
  if (report.files.length > 1) rows.push({ name: `total (${report.files.length} files)`, row: report });
  return rows;
}

/**
 * The per-file table and a total. Every figure is a ratio to the naive transcript under the same
 * measure: raw input tokens / cache-weighted cost. By default: plain columns no wider than
 * `width` (whole percents, peers abbreviated, a key under it); `wide`: every column as markdown.
 */
export function formatAnalyzeTable(report: AnalyzeReport, options: AnalyzeTextOptions = {}): string {
  const rows = rowsOf(report);
  const col = (header: string, cell: (r: Row) => string, priority = 0): TextColumn => ({
    header,
    cells: rows.map(({ row }) => cell(row)),
    align: "right",
    priority,
  });
  if (options.wide) {
    const name: TextColumn = { header: "transcript", cells: rows.map((r) => r.name), align: "left" };
    const both = (f: { tokens: number; cost: number }, r: Row) =>
      `${pct(f.tokens, r.naive_tokens)} / ${pct(f.cost, r.naive_cost)}`;
    return markdownTable([
      { ...name, cells: rows.map((r) => (r.row === report && report.files.length > 1 ? `**${r.name}**` : r.name)) },
      col("calls", (r) => String(r.calls)),
      col("naive tokens", (r) => int(r.naive_tokens)),
      col("floor", (r) => pct(r.floor_tokens, r.naive_tokens)),
      col("refs", (r) => pct(r.refs_tokens, r.naive_tokens)),
      col("window tokens / cost", (r) => both(r.strategies.window, r)),
      col("append tokens / cost", (r) => both(r.strategies.append, r)),
      ...POLICY_NAMES.map((n) => col(n, (r) => both(r.policies[n], r))),
      col("budget violations", (r) => String(r.budget_violations)),
      col("rehydration mismatches", (r) => String(r.rehydration_mismatches)),
    ]);
  }
  const width = options.width ?? ANALYZE_TEXT_WIDTH;
  // The extension every file shares is said once, in the header, to leave room for the names.
  const ext = sharedExtension(report.files.map((f) => f.file));
  const name: TextColumn = {
    header: ext ? `transcript (${ext})` : "transcript",
    cells: rows.map((r, i) => (i < report.files.length ? r.name.slice(0, r.name.length - ext.length) : r.name)),
    align: "left",
    minWidth: 16,
  };
  const fitted = fitTable(
    [
      name,
      col("calls", (r) => String(r.calls), 3),
      col("naive", (r) => compactNumber.format(r.naive_tokens), 2),
      col("window", (r) => pair(r.strategies.window.tokens, r.strategies.window.cost, r)),
      col("append", (r) => pair(r.strategies.append.tokens, r.strategies.append.cost, r)),
      ...POLICY_NAMES.map((n) => col(PEER_SHORT_NAMES[n], (r) => pair(r.policies[n].tokens, r.policies[n].cost, r), 1)),
      col("viol", (r) => String(r.budget_violations)),
    ],
    width,
  );
  const key =
    "Cells: % of naive, input tokens/cache-weighted cost (lower is better). naive: input tokens re-sent by the " +
    `naive transcript. Peers: ${POLICY_NAMES.map((n) => `${PEER_SHORT_NAMES[n]} = ${n}`).join(", ")}. ` +
    "viol: budget violations." +
    (fitted.hidden.length ? ` Left out to fit ${width} columns: ${fitted.hidden.join(", ")}.` : "") +
    " --wide: every column (floor, refs, rehydration mismatches) with one decimal.";
  return `${fitted.text}\n\n${wrapText(key, width)}`;
}

/** The extension (`.jsonl`) every name ends with and none is only, or "". */
export function sharedExtension(names: readonly string[]): string {
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(names[0] ?? "")?.[0] ?? "";
  return ext && names.every((n) => n.endsWith(ext) && n.length > ext.length) ? ext : "";
}

/**
 * The file each strategy does worst on, per measure (highest share of naive; ties: the larger
 * file), and the file with the most budget violations when there are any. Empty for one file.
 */
export function formatWorstFiles(report: AnalyzeReport, options: AnalyzeTextOptions = {}): string {
  if (report.files.length < 2) return "";
  const width = options.wide ? Number.POSITIVE_INFINITY : (options.width ?? ANALYZE_TEXT_WIDTH);
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  const worst = (score: (f: AnalyzeFile) => number) =>
    report.files.reduce((w, f) => {
      const d = score(f) - score(w);
      return d > 0 || (d === 0 && f.naive_tokens > w.naive_tokens) ? f : w;
    });
  const lines = [wrapText("Worst file per strategy (highest share of naive; ties: the larger file):", width)];
  for (const s of ["window", "append"] as const) {
    for (const m of ["tokens", "cost"] as const) {
      const of = (f: AnalyzeFile) => share(f.strategies[s][m], m === "tokens" ? f.naive_tokens : f.naive_cost);
      const f = worst(of);
      const head = `  ${`${s} ${m}`.padEnd(13)} ${`${(100 * of(f)).toFixed(1)}%`.padStart(6)}  `;
      lines.push(head + cut(f.file, width - displayWidth(head)));
    }
  }
  const most = worst((f) => f.budget_violations);
  if (most.budget_violations > 0) {
    const head = `  most budget violations: ${most.budget_violations} in `;
    lines.push(head + cut(most.file, width - displayWidth(head)));
  }
  return lines.join("\n");
}

function cut(text: string, max: number): string {
  return Number.isFinite(max) ? shortenToWidth(text, max) : text;
}

/** Per-call table of one file (what each call costs and how much of it is a cached prefix). */
export function formatTurnTable(report: AnalyzeReport, file: string, options: AnalyzeTextOptions = {}): string {
  const turns = report.turns.filter((x) => x.file === file);
  const col = (header: string, cell: (t: (typeof turns)[number]) => string, priority = 0): TextColumn => ({
    header,
    cells: turns.map(cell),
    align: "right",
    priority,
  });
  const columns = (prefix: (s: string) => string, wide: boolean): TextColumn[] => [
    col("call", (t) => String(t.call)),
    col("msg", (t) => String(t.index), 2),
    col("naive", (t) => int(t.naive_tokens)),
    col("refs", (t) => int(t.refs_tokens), 1),
    col("window", (t) => int(t.window_tokens)),
    col("append", (t) => int(t.append_tokens)),
    col(prefix("naive"), (t) => pct(t.naive_prefix_share, 1), 1),
    col(prefix("window"), (t) => pct(t.window_prefix_share, 1)),
    col(prefix("append"), (t) => pct(t.append_prefix_share, 1)),
    col(wide ? "fetches" : "fetch", (t) => String(t.fetches), 1),
    { ...col(wide ? "compacted" : "compact", (t) => (t.append_compacted ? "yes" : ""), 1), align: "left" },
    col(wide ? "violations" : "viol", (t) => String(t.budget_violations)),
  ];
  if (options.wide) return markdownTable(columns((s) => `${s} prefix`, true));
  const width = options.width ?? ANALYZE_TEXT_WIDTH;
  const fitted = fitTable(
    columns((s) => `${s[0]}.pfx`, false),
    width,
  );
  const key =
    "Input tokens per call. n./w./a.pfx: share of the naive/window/append prompt that is a byte-identical " +
    "prefix of the previous call's (billed at the cached price); compact: append compacted before this call." +
    (fitted.hidden.length ? ` Left out to fit ${width} columns: ${fitted.hidden.join(", ")}.` : "");
  return `${fitted.text}\n\n${wrapText(key, width)}`;
}

/** One-paragraph summary against the targets (lines folded at `width` unless `wide`). */
export function formatSummary(report: AnalyzeReport, options: AnalyzeTextOptions = {}): string {
  const r = report;
  const bestPeerTokens = Math.min(...POLICY_NAMES.map((n) => r.policies[n].tokens));
  const bestPeerCost = Math.min(...POLICY_NAMES.map((n) => r.policies[n].cost));
  const lines = [
    `${r.files.length} transcript(s), ${r.calls} model calls, ${int(r.naive_tokens)} naive input tokens; floor (system + task on every call) ${pct(r.floor_tokens, r.naive_tokens)}.`,
    `window: ${pct(r.strategies.window.tokens, r.naive_tokens)} of naive tokens (best peer ${pct(bestPeerTokens, r.naive_tokens)}); ` +
      `append: ${pct(r.strategies.append.cost, r.naive_cost)} of naive cache-weighted cost (best peer ${pct(bestPeerCost, r.naive_cost)}).`,
    `${r.externalized} outputs externalized, ${r.fetches} capped fetches counted, ${r.compactions} append compactions; ` +
      `${r.budget_violations} budget violations, ${r.rehydration_mismatches} rehydration mismatches.`,
    formatEvidence(r),
    ...r.files.flatMap((f) => (f.warnings ?? []).map((w) => `warning: ${w}`)),
  ];
  if (options.wide) return lines.join("\n");
  // A pair `a / b` stays on one line (held by no-break spaces while folding).
  const fold = (l: string) =>
    wrapText(l.replaceAll(" / ", "\u00a0/\u00a0"), options.width ?? ANALYZE_TEXT_WIDTH, "  ").replaceAll("\u00a0", " ");
  return lines.map(fold).join("\n");
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
