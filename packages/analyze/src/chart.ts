import { renderBarChart, type ChartSeries } from "@artifact-refs/budget";
import { sharedExtension } from "./format.js";
import { POLICY_NAMES } from "./policies/types.js";
import type { AnalyzeFile, AnalyzeReport } from "./report.js";

type Figures = { tokens: number; cost: number };
type Row = Pick<AnalyzeFile, "file" | "naive_tokens" | "naive_cost" | "strategies" | "policies">;

/** The series of the chart: artifact-refs' two strategies, then each peer policy. */
const SERIES: ReadonlyArray<{ label: string; color: string; of: (r: Row) => Figures }> = [
  { label: "window (artifact-refs)", color: "#2b7de9", of: (r) => r.strategies.window },
  { label: "append (artifact-refs)", color: "#1a9850", of: (r) => r.strategies.append },
  ...POLICY_NAMES.map((name, i) => ({
    label: name,
    color: ["#f28e2b", "#b07aa1", "#9c755f", "#e15759"][i]!,
    of: (r: Row) => r.policies[name],
  })),
];

const MEASURES = [
  { key: "tokens", naive: "naive_tokens", heading: "input tokens" },
  { key: "cost", naive: "naive_cost", heading: "cache-weighted cost" },
] as const;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);
const HEADING = 26;

/**
 * A self-contained SVG (no fonts fetched, no scripts), drawn by the shared bar-chart renderer of
 * `@artifact-refs/budget`: two panels (input tokens, cache-weighted cost), each a group of bars per
 * transcript (and the total) with one bar per policy (window, append, every peer), as a percent
 * of the naive transcript, the naive level as a dashed line at 100%. Long file names are shortened
 * in the middle (the full name is in each bar's tooltip); the chart widens with the number of files.
 */
export function renderAnalyzeSvg(report: AnalyzeReport): string {
  const rows: Row[] = [...report.files];
  if (report.files.length > 1) rows.push({ ...report, file: `total (${report.files.length} files)` });
  const width = Math.max(760, 90 + rows.length * (SERIES.length * 7 + 16));
  // The extension every file shares goes under the axis once, leaving the labels for the names.
  const ext = sharedExtension(report.files.map((f) => f.file));
  const labels = rows.map((r, i) => (i < report.files.length ? r.file.slice(0, r.file.length - ext.length) : r.file));
  const panels: string[] = [];
  let top = 34;
  for (const m of MEASURES) {
    const series: ChartSeries[] = SERIES.map((s) => ({
      label: s.label,
      color: s.color,
      values: rows.map((r) => share(s.of(r)[m.key], r[m.naive])),
    }));
    const chart = renderBarChart({
      description: `${m.heading} of each policy as a percent of the naive transcript, per transcript (${rows.length} groups, ${series.length} policies)`,
      series,
      groupLabels: labels,
      groupTitles: rows.map((r) => r.file),
      xLabel: ext ? `transcript (${ext} file)` : "transcript",
      formatValue: (v) => `${v}%`,
      title: (s, i) => `${rows[i]!.file}: ${s.label} ${s.values[i]}% of naive ${m.heading}`,
      budget: { value: 100, label: "naive = 100%" },
      width,
      height: 300,
      legend: true,
      attributes: { x: "0", y: String(top + HEADING), class: `analyze-${m.key}` },
    });
    const height = Number(/^<svg [^>]*?height="(\d+(?:\.\d+)?)"/.exec(chart)?.[1] ?? 300);
    panels.push(
      `<text x="64" y="${top + 16}" font-size="13" font-weight="bold">% of naive ${esc(m.heading)} (lower is better)</text>`,
      chart,
    );
    top += HEADING + height + 10;
  }
  const title = `Each policy as a percent of naive: ${report.files.length} transcript(s), ${report.calls} calls`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${top}" viewBox="0 0 ${width} ${top}" font-family="sans-serif" font-size="11">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${width}" height="${top}" fill="#fff"/>`,
    `<text x="64" y="20" font-size="14">${esc(title)}</text>`,
    ...panels,
    "</svg>",
    "",
  ].join("\n");
}
