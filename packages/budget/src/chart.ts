/**
 * The one bar-chart renderer of the project: a self-contained SVG string (no dependencies, no
 * DOM), used by the demo agent's HTML report, the web UI (which inserts it) and `aref analyze`'s
 * chart. Bars (one group per call, turn or file, one bar per series), optional value labels, group
 * labels (numbers, or names rotated when they do not fit), a legend that wraps, and a reference
 * line (the budget). Elements carry stable classes (`axis`, `tick`, `group-label`, `bar`,
 * `bar over`, `value`, `budget`, `budget-label`, `legend`) so a page's CSS can restyle them;
 * colours are presentation attributes, which CSS overrides.
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
  /** A dashed horizontal line: the budget, or any reference value (e.g. 100%). */
  budget?: { value: number; label: string };
  width?: number;
  height?: number;
  /** Label under the x axis. */
  xLabel?: string;
  /** Print each bar's value above it. */
  valueLabels?: boolean;
  /** Print each group's number (1-based) under it. */
  xTicks?: boolean;
  /**
   * A name under each group (instead of its number), shortened to `maxLabelChars` in the middle
   * and rotated when the names do not fit side by side; the default tooltip names the group too.
   */
  groupLabels?: readonly string[];
  /** Tooltip of each group label (default: the label in full when it was shortened). */
  groupTitles?: readonly string[];
  /** Longest group label drawn (default 28 characters); longer ones are shortened in the middle. */
  maxLabelChars?: number;
  /** Text of a value on the y axis and in value labels and tooltips (default: `1,234`). */
  formatValue?: (value: number) => string;
  /** Show a legend of the series (default: when there is more than one). */
  legend?: boolean;
  /** Tooltip of one bar; default `<series label> <group>: <value>`. */
  title?: (series: ChartSeries, index: number) => string;
  /** Extra attributes of the root element (e.g. a class, or x/y when nested in another SVG). */
  attributes?: Record<string, string>;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const num = (n: number) => n.toLocaleString("en-US");
const f = (n: number) => n.toFixed(1);
/** Approximate width of one character of the 11px sans-serif text (for layout only). */
const CHAR_W = 6.8;
const LEGEND_ROW = 16;

/**
 * `text` cut to at most `max` characters with an ellipsis in the middle, keeping more of the end
 * (where names differ: ids, numbers, extensions). Never splits a surrogate pair.
 */
export function shortenLabel(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 1) return "…".slice(0, Math.max(0, max));
  const head = Math.floor((max - 1) * 0.4);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

/**
 * Every label shortened to `max` characters (`shortenLabel`), kept distinct: labels that would
 * collide keep more of their end, then get their position appended.
 */
export function shortenLabels(labels: readonly string[], max: number): string[] {
  const out = labels.map((l) => shortenLabel(l, max));
  const clashes = () => out.map((l, i) => out.indexOf(l) !== i || out.lastIndexOf(l) !== i);
  let clash = clashes();
  if (!clash.some(Boolean)) return out;
  for (const [i, label] of labels.entries()) {
    if (!clash[i]) continue;
    const chars = Array.from(label);
    out[i] = chars.length <= max ? label : `…${chars.slice(chars.length - (max - 1)).join("")}`;
  }
  clash = clashes();
  for (const [i, label] of out.entries()) {
    if (!clash[i]) continue;
    const suffix = `#${i + 1}`;
    out[i] = `${shortenLabel(label, Math.max(1, max - suffix.length))}${suffix}`;
  }
  return out;
}

/** Round tick values from 0 to at least `top` (steps of 1, 2, 2.5 or 5 times a power of ten). */
export function niceTicks(top: number, count = 4): number[] {
  if (!(top > 0)) return [0];
  const raw = top / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  // Some room above the tallest bar for its value label.
  const ticks = [0];
  while (ticks.at(-1)! < top * 1.04) ticks.push(Math.round(ticks.length * step * 1e6) / 1e6);
  return ticks;
}

/** Legend items laid out left to right, wrapped into rows that fit `width`. */
function legendLayout(series: readonly ChartSeries[], left: number, width: number) {
  const items: Array<{ s: ChartSeries; x: number; row: number }> = [];
  let x = left;
  let row = 0;
  for (const s of series) {
    const w = 24 + s.label.length * 6.5;
    if (x > left && x + w > width) {
      row++;
      x = left;
    }
    items.push({ s, x, row });
    x += w;
  }
  return { items, rows: series.length === 0 ? 0 : row + 1 };
}

/** Renders the chart as an SVG document fragment (a string starting with `<svg`). */
export function renderBarChart(spec: ChartSpec): string {
  const width = spec.width ?? 760;
  const legend = spec.legend ?? spec.series.length > 1;
  const fmt = spec.formatValue ?? num;
  const groups = Math.max(0, ...spec.series.map((s) => s.values.length), spec.groupLabels?.length ?? 0);
  const right = 16;
  // Names side by side when a group is wide enough for 16 characters (shortened to fit), else rotated.
  const across = Math.floor(((width - 64 - right) / Math.max(groups, 1) - 12) / CHAR_W);
  const labelChars = spec.maxLabelChars ?? 28;
  const widest = Math.max(0, ...(spec.groupLabels ?? []).map((n) => Array.from(n).length));
  const rotate = spec.groupLabels !== undefined && across < Math.min(16, widest, labelChars);
  const names = spec.groupLabels
    ? shortenLabels(spec.groupLabels, rotate ? labelChars : Math.min(labelChars, across))
    : undefined;
  const longest = Math.max(0, ...(names ?? []).map((n) => Array.from(n).length)) * CHAR_W;
  // A label rotated under the first group reaches left of it: the plot starts far enough right.
  const firstStep = (width - 64 - right) / Math.max(groups, 1);
  const left = rotate ? Math.max(64, Math.ceil(longest * Math.SQRT1_2 - firstStep / 2 + 8)) : 64;
  const innerW = width - left - right;
  const step = innerW / Math.max(groups, 1);
  const labelH = names ? (rotate ? Math.ceil(longest * Math.SQRT1_2 + 18) : 18) : spec.xTicks ? 18 : 8;
  const legendRows = legend ? legendLayout(spec.series, left, width - right).rows : 0;
  const pad = { left, right, top: legend ? 10 + LEGEND_ROW * legendRows : 14, bottom: (spec.xLabel ? 18 : 0) + labelH };
  const height = spec.height ?? 300;
  const ticks = niceTicks(Math.max(1, spec.budget?.value ?? 0, ...spec.series.flatMap((s) => s.values)));
  const max = ticks.at(-1)!;
  // Long rotated labels or a wrapped legend make the chart taller rather than the plot smaller.
  const innerH = Math.max(Math.round(height * 0.6), height - pad.top - pad.bottom);
  const fullH = Math.max(height, pad.top + innerH + pad.bottom);
  const barW = Math.max(2, Math.min(36, (step * 0.8) / Math.max(spec.series.length, 1)));
  const y = (v: number) => pad.top + innerH - (Math.max(0, v) / max) * innerH;
  const groupName = (i: number) => spec.groupLabels?.[i] ?? String(i + 1);
  const out: string[] = [];
  const attrs = Object.entries(spec.attributes ?? {})
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join("");
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${fullH}" width="${width}" height="${fullH}" role="img" aria-label="${esc(spec.description)}"${attrs}>`,
    `<desc>${esc(spec.description)}</desc>`,
  );
  for (const v of ticks) {
    out.push(
      `<line class="grid" x1="${pad.left}" x2="${width - pad.right}" y1="${f(y(v))}" y2="${f(y(v))}" stroke="#eee"/>`,
      `<text class="tick" x="${pad.left - 6}" y="${f(y(v) + 4)}" text-anchor="end" font-size="11" fill="#555">${esc(fmt(v))}</text>`,
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
      const title = spec.title ? spec.title(s, i) : `${s.label} ${groupName(i)}: ${fmt(v)}`;
      out.push(
        `<rect class="${over ? "bar over" : "bar"}" data-series="${k}" data-index="${i + 1}" x="${f(x)}" y="${f(y(v))}" width="${f(barW * 0.9)}" height="${f(Math.max(1, pad.top + innerH - y(v)))}" fill="${esc(over ? (s.overColor ?? s.color) : s.color)}"><title>${esc(title)}</title></rect>`,
      );
      if (spec.valueLabels)
        out.push(
          `<text class="value" x="${f(x + (barW * 0.9) / 2)}" y="${f(y(v) - 4)}" text-anchor="middle" font-size="11">${esc(fmt(v))}</text>`,
        );
    });
    const cx = x0 + groupW / 2;
    const ly = pad.top + innerH + 14;
    if (names) {
      const full = spec.groupTitles?.[i] ?? spec.groupLabels![i]!;
      const place = rotate
        ? `x="${f(cx)}" y="${f(ly)}" text-anchor="end" transform="rotate(-45 ${f(cx)} ${f(ly)})"`
        : `x="${f(cx)}" y="${f(ly)}" text-anchor="middle"`;
      out.push(
        `<text class="group-label" data-index="${i + 1}" ${place} font-size="11" fill="#333">${names[i] === full ? "" : `<title>${esc(full)}</title>`}${esc(names[i]!)}</text>`,
      );
    } else if (spec.xTicks)
      out.push(
        `<text class="tick" x="${f(cx)}" y="${f(ly)}" text-anchor="middle" font-size="11" fill="#555">${i + 1}</text>`,
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
      `<text class="x-label" x="${f(pad.left + innerW / 2)}" y="${fullH - 6}" text-anchor="middle" font-size="12" fill="#333">${esc(spec.xLabel)}</text>`,
    );
  if (legend) {
    for (const { s, x, row } of legendLayout(spec.series, pad.left, width - pad.right).items) {
      const top = 4 + row * LEGEND_ROW;
      out.push(
        `<g class="legend"><rect x="${f(x)}" y="${top}" width="10" height="10" fill="${esc(s.color)}"/><text x="${f(x + 14)}" y="${top + 9}" font-size="11">${esc(s.label)}</text></g>`,
      );
    }
  }
  out.push("</svg>");
  return out.join("\n");
}
