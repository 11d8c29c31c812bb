import { shortenLabel } from "@artifact-refs/budget";

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

function widthOf(c: TextColumn): number {
  return Math.max(c.header.length, ...c.cells.map((s) => Array.from(s).length));
}

function pad(text: string, width: number, align: "left" | "right"): string {
  const fill = " ".repeat(Math.max(0, width - Array.from(text).length));
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
    const room = shrink >= 0 ? widths[shrink]! - Math.max(cols[shrink]!.minWidth!, cols[shrink]!.header.length) : 0;
    if (over <= 0) return { text: render(cols, widths), hidden };
    if (room >= over) {
      widths[shrink] = widths[shrink]! - over;
      const w = widths[shrink]!;
      const named = { ...cols[shrink]!, cells: cols[shrink]!.cells.map((s) => shortenLabel(s, w)) };
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
        .map((l) => Array.from(l).slice(0, maxWidth).join(""))
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

/** `text` folded into lines of at most `width` characters at spaces (longer words are cut); later lines start with `indent`. */
export function wrapText(text: string, width: number, indent = ""): string {
  const out: string[] = [];
  const len = (s: string) => Array.from(s).length;
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
      let chars = Array.from(word);
      while (chars.length > 0) {
        const start = line ? `${line} ` : prefix();
        if (len(start) + chars.length <= width) {
          line = start + chars.join("");
          chars = [];
        } else if (line) push();
        else {
          const room = Math.max(1, width - len(start));
          line = start + chars.slice(0, room).join("");
          chars = chars.slice(room);
          push();
        }
      }
    }
    if (line || first) out.push(line);
  }
  return out.join("\n");
}
