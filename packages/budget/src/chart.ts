/**
 * The one chart renderer of prompt sizes against a budget: a self-contained SVG string (no
 * dependencies, no DOM), used by the demo agent's HTML report and the web UI (which inserts it).
 * Bars (one group per call or turn, one bar per series), optional value labels, x ticks, a legend
 * and the budget as a dashed line. Elements carry stable classes (`axis`, `tick`, `bar`, `bar over`,
 * `value`, `budget`, `budget-label`, `legend`) so a page's CSS can restyle them; colours are
 * presentation attributes, which CSS overrides.
 */
export interface ChartSeries {
  label: string;
  values: readonly number[];
  color: string;
  /** Per point: the value is over the budget (bar class `bar over`, drawn in `overColor`). */
  over?: readonly boolean[];
  overColor?: string;
}

export interface ChartSpec {
  series: readonly ChartSeries[];
  /** Accessible description (`<desc>`), also the chart's aria-label. */
  description: string;
  budget?: { value: number; label: string };
  width?: number;
  height?: number;
  /** Label under the x axis. */
  xLabel?: string;
  /** Print each bar's value above it. */
  valueLabels?: boolean;
  /** Print each group's number (1-based) under it. */
  xTicks?: boolean;
  /** Show a legend of the series (default: when there is more than one). */
  legend?: boolean;
  /** Tooltip of one bar; default `<series label> <group number>: <value>`. */
  title?: (series: ChartSeries, index: number) => string;
  /** Extra attributes of the root element (e.g. a class). */
  attributes?: Record<string, string>;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const num = (n: number) => n.toLocaleString("en-US");
const f = (n: number) => n.toFixed(1);

/** Renders the chart as an SVG document fragment (a string starting with `<svg`). */
export function renderBarChart(spec: ChartSpec): string {
  const width = spec.width ?? 760;
  const height = spec.height ?? 300;
  const legend = spec.legend ?? spec.series.length > 1;
  const pad = {
    left: 64,
    right: 16,
    top: legend ? 24 : 14,
    bottom: (spec.xLabel ? 18 : 0) + (spec.xTicks ? 18 : 8),
  };
  const groups = Math.max(0, ...spec.series.map((s) => s.values.length));
  const max = Math.max(1, spec.budget?.value ?? 0, ...spec.series.flatMap((s) => s.values)) * 1.05;
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const step = innerW / Math.max(groups, 1);
  const barW = Math.max(2, Math.min(36, (step * 0.8) / Math.max(spec.series.length, 1)));
  const y = (v: number) => pad.top + innerH - (Math.max(0, v) / max) * innerH;
  const out: string[] = [];
  const attrs = Object.entries(spec.attributes ?? {})
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join("");
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${esc(spec.description)}"${attrs}>`,
    `<desc>${esc(spec.description)}</desc>`,
  );
  for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
    const v = Math.round((max / 1.05) * fraction);
    out.push(
      `<line class="grid" x1="${pad.left}" x2="${width - pad.right}" y1="${f(y(v))}" y2="${f(y(v))}" stroke="#eee"/>`,
      `<text class="tick" x="${pad.left - 6}" y="${f(y(v) + 4)}" text-anchor="end" font-size="11" fill="#555">${num(v)}</text>`,
    );
  }
  out.push(
    `<line class="axis" x1="${pad.left}" x2="${pad.left}" y1="${pad.top}" y2="${pad.top + innerH}" stroke="#999"/>`,
    `<line class="axis" x1="${pad.left}" x2="${width - pad.right}" y1="${pad.top + innerH}" y2="${pad.top + innerH}" stroke="#999"/>`,
  );
  const groupW = barW * spec.series.length;
  for (let i = 0; i < groups; i++) {
    const x0 = pad.left + i * step + (step - groupW) / 2;
    spec.series.forEach((s, k) => {
      const v = s.values[i];
      if (v === undefined) return;
      const over = s.over?.[i] === true;
      const x = x0 + k * barW;
      const title = spec.title ? spec.title(s, i) : `${s.label} ${i + 1}: ${num(v)}`;
      out.push(
        `<rect class="${over ? "bar over" : "bar"}" data-series="${k}" data-index="${i + 1}" x="${f(x)}" y="${f(y(v))}" width="${f(barW * 0.9)}" height="${f(Math.max(1, pad.top + innerH - y(v)))}" fill="${esc(over ? (s.overColor ?? s.color) : s.color)}"><title>${esc(title)}</title></rect>`,
      );
      if (spec.valueLabels)
        out.push(
          `<text class="value" x="${f(x + (barW * 0.9) / 2)}" y="${f(y(v) - 4)}" text-anchor="middle" font-size="11">${num(v)}</text>`,
        );
    });
    if (spec.xTicks)
      out.push(
        `<text class="tick" x="${f(x0 + groupW / 2)}" y="${f(pad.top + innerH + 14)}" text-anchor="middle" font-size="11" fill="#555">${i + 1}</text>`,
      );
  }
  if (spec.budget) {
    const by = f(y(spec.budget.value));
    out.push(
      `<line class="budget" x1="${pad.left}" x2="${width - pad.right}" y1="${by}" y2="${by}" stroke="#d9342b" stroke-dasharray="6 4"/>`,
      `<text class="budget-label" x="${width - pad.right}" y="${f(Number(by) - 6)}" text-anchor="end" font-size="11" fill="#d9342b">${esc(spec.budget.label)}</text>`,
    );
  }
  if (spec.xLabel)
    out.push(
      `<text class="x-label" x="${f(pad.left + innerW / 2)}" y="${height - 6}" text-anchor="middle" font-size="12" fill="#333">${esc(spec.xLabel)}</text>`,
    );
  if (legend) {
    let lx = pad.left;
    for (const s of spec.series) {
      out.push(
        `<g class="legend"><rect x="${lx}" y="4" width="10" height="10" fill="${esc(s.color)}"/><text x="${lx + 14}" y="13" font-size="11">${esc(s.label)}</text></g>`,
      );
      lx += 24 + s.label.length * 6.5;
    }
  }
  out.push("</svg>");
  return out.join("\n");
}
