import { clip, fmtInt } from "../text.js";
import { detectDelimiter, splitCsvLine } from "./detect.js";
import type { RawPreview } from "./types.js";

/** CSV/TSV: the header, the row and column counts, and the first rows. */
export function previewCsv(text: string, maxChars: number): RawPreview {
  const lines = text.split("\n").filter((l, i, a) => !(i === a.length - 1 && l === ""));
  const delimiter = detectDelimiter(lines.slice(0, 20)) ?? ",";
  const header = splitCsvLine(lines[0] ?? "", delimiter).map((h) => h.trim());
  const rows = lines.length - 1;
  const name = delimiter === "\t" ? "TSV" : "CSV";
  const cols = header.length;
  const summary = `${name}, ${fmtInt(rows)} rows x ${fmtInt(cols)} columns: ${clip(header.join(", "), 380)}`;
  const sample = lines.slice(1, 6).map((l) => clip(l, 300));
  const tail = rows > 8 ? lines.slice(-2).map((l) => clip(l, 300)) : [];
  const preview = [
    `header: ${header.join(" | ")}`,
    `rows: ${fmtInt(rows)}`,
    "first rows:",
    ...sample,
    ...(tail.length ? ["…", "last rows:", ...tail] : []),
  ].join("\n");
  return { summary, preview: clip(preview, maxChars), stats: { rows, columns: cols, chars: text.length } };
}
