import stringWidth from "string-width";

/** One column of a text table: a header and a cell per row. */
export interface TextColumn {
  header: string;
  cells: readonly string[];
  align: "left" | "right";
  /** The name column: shortened in the middle (down to `minWidth`) before any column is dropped. */
  minWidth?: number;
  /** Lower keeps longer when the table is too wide (columns of the highest priority go first). */
  priority?: number;
}

export interface FittedTable {
  text: string;
  /** Headers of the columns left out to fit the width. */
  hidden: string[];
}

const GAP = 2;

/** Terminal columns `text` takes: two for a CJK character or an emoji, one glyph for a joined sequence. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** The glyphs (grapheme clusters) of `text`, each with its display width. */
function glyphs(text: string): Array<{ g: string; w: number }> {
  return Array.from(segmenter.segment(text), ({ segment }) => ({ g: segment, w: stringWidth(segment) }));
}

/** The leading glyphs of `list` that fit in `max` columns (at least one when `atLeastOne`). */
function leading(list: ReadonlyArray<{ g: string; w: number }>, max: number, atLeastOne = false) {
  let width = 0;
  let n = 0;
  while (n < list.length && (width + list[n]!.w <= max || (atLeastOne && n === 0))) width += list[n++]!.w;
  return {
    text: list
      .slice(0, n)
      .map((x) => x.g)
      .join(""),
    width,
    n,
  };
}

/** The trailing glyphs of `list` that fit in `max` columns, as text. */
function trailing(list: ReadonlyArray<{ g: string; w: number }>, max: number): string {
  const n = leading([...list].reverse(), max).n;
  return list
    .slice(list.length - n)
    .map((x) => x.g)
    .join("");
}

/**
 * `text` in at most `max` display columns: the middle replaced by "…" (two fifths of the room
 * before it, the rest after it), never cutting a glyph.
 */
export function shortenToWidth(text: string, max: number): string {
  if (stringWidth(text) <= max) return text;
  if (max <= 1) return "…".slice(0, Math.max(0, max));
  const list = glyphs(text);
  const head = leading(list, Math.floor((max - 1) * 0.4));
  return `${head.text}…${trailing(list.slice(head.n), max - 1 - head.width)}`;
}

/**
 * Every cell in at most `max` columns (shortenToWidth), kept distinct: cells that would look the
 * same keep their end instead, then get their row number appended.
 */
function shortenDistinct(cells: readonly string[], max: number): string[] {
  const out = cells.map((c) => shortenToWidth(c, max));
  const clashes = () => out.map((c, i) => out.indexOf(c) !== i || out.lastIndexOf(c) !== i);
  let clash = clashes();
  if (!clash.some(Boolean)) return out;
  for (const [i, cell] of cells.entries()) {
    if (!clash[i] || stringWidth(cell) <= max) continue;
    out[i] = `…${trailing(glyphs(cell), max - 1)}`;
  }
  clash = clashes();
  for (const [i, cell] of out.entries()) {
    if (!clash[i]) continue;
    const suffix = `#${i + 1}`;
    out[i] = `${shortenToWidth(cell, Math.max(1, max - suffix.length))}${suffix}`;
  }
  return out;
}

function widthOf(c: TextColumn): number {
  return Math.max(stringWidth(c.header), ...c.cells.map((s) => stringWidth(s)));
}

function pad(text: string, width: number, align: "left" | "right"): string {
  const fill = " ".repeat(Math.max(0, width - stringWidth(text)));
  return align === "right" ? fill + text : text + fill;
}

/**
 * Columns padded to line up, two spaces apart, no line wider than `maxWidth`: the shrinkable
 * column is shortened first (middle ellipsis), then columns are dropped, highest priority first.
 */
export function fitTable(columns: readonly TextColumn[], maxWidth: number): FittedTable {
  let cols = [...columns];
  const hidden: string[] = [];
  const total = (cs: readonly TextColumn[], widths: number[]) =>
    widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, cs.length - 1);
  for (;;) {
    const widths = cols.map(widthOf);
    const over = total(cols, widths) - maxWidth;
    const shrink = cols.findIndex((c) => c.minWidth !== undefined);
    const room =
      shrink >= 0 ? widths[shrink]! - Math.max(cols[shrink]!.minWidth!, stringWidth(cols[shrink]!.header)) : 0;
    if (over <= 0) return { text: render(cols, widths), hidden };
    if (room >= over) {
      widths[shrink] = widths[shrink]! - over;
      const w = widths[shrink]!;
      const named = { ...cols[shrink]!, cells: shortenDistinct(cols[shrink]!.cells, w) };
      cols = cols.map((c, i) => (i === shrink ? named : c));
      return { text: render(cols, widths), hidden };
    }
    const drop = cols
      .map((c, i) => ({ i, p: c.priority ?? 0 }))
      .filter(({ i }) => i !== shrink && i !== 0)
      .sort((a, b) => b.p - a.p || b.i - a.i)[0];
    if (!drop) {
      // Nothing left to drop: cut every line (never reached by the tables of this package).
      const text = render(cols, widths)
        .split("\n")
        .map((l) => leading(glyphs(l), maxWidth).text)
        .join("\n");
      return { text, hidden };
    }
    hidden.push(cols[drop.i]!.header);
    cols = cols.filter((_, i) => i !== drop.i);
  }
}

function render(cols: readonly TextColumn[], widths: readonly number[]): string {
  const rows = Math.max(0, ...cols.map((c) => c.cells.length));
  const line = (cell: (c: TextColumn) => string) =>
    cols
      .map((c, i) => pad(cell(c), widths[i]!, c.align))
      .join(" ".repeat(GAP))
      .trimEnd();
  const out = [line((c) => c.header)];
  for (let r = 0; r < rows; r++) out.push(line((c) => c.cells[r] ?? ""));
  return out.join("\n");
}

/** The same columns as a markdown table, padded so the columns line up in a terminal too. */
export function markdownTable(columns: readonly TextColumn[]): string {
  const widths = columns.map((c) => Math.max(3, widthOf(c)));
  const rows = Math.max(0, ...columns.map((c) => c.cells.length));
  const line = (cell: (c: TextColumn) => string) =>
    `| ${columns.map((c, i) => pad(cell(c), widths[i]!, c.align)).join(" | ")} |`;
  const sep = `|${columns.map((c, i) => (c.align === "right" ? `${"-".repeat(widths[i]! + 1)}:` : "-".repeat(widths[i]! + 2))).join("|")}|`;
  const out = [line((c) => c.header), sep];
  for (let r = 0; r < rows; r++) out.push(line((c) => c.cells[r] ?? ""));
  return out.join("\n");
}

/** `text` folded into lines of at most `width` display columns at spaces (longer words are cut); later lines start with `indent`. */
export function wrapText(text: string, width: number, indent = ""): string {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    let first = true;
    const prefix = () => (first ? "" : indent);
    const push = () => {
      out.push(line);
      line = "";
      first = false;
    };
    for (const word of paragraph.split(/ +/).filter(Boolean)) {
      let rest = glyphs(word);
      while (rest.length > 0) {
        const start = line ? `${line} ` : prefix();
        const restWidth = rest.reduce((n, x) => n + x.w, 0);
        if (stringWidth(start) + restWidth <= width) {
          line = start + rest.map((x) => x.g).join("");
          rest = [];
        } else if (line) push();
        else {
          const part = leading(rest, Math.max(1, width - stringWidth(start)), true);
          line = start + part.text;
          rest = rest.slice(part.n);
          push();
        }
      }
    }
    if (line || first) out.push(line);
  }
  return out.join("\n");
}
