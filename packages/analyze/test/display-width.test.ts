// File names in CJK scripts or with emoji take two terminal columns per character (an emoji
// sequence joined by ZWJ is one glyph): the default tables measure display columns, not UTF-16
// code units or code points, so they still fit 100 columns and line up.
import {
  displayColumns,
  graphemeColumns,
  graphemes,
  WIDE_NAMES,
  widestLine,
} from "@artifact-refs/tooling/testing/display-columns";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ANALYZE_TEXT_WIDTH,
  analyzeTexts,
  formatAnalyzeTable,
  formatWorstFiles,
  wrapText,
  type AnalyzeReport,
} from "../src/index.js";
import { transcript } from "./helpers.js";

let report: AnalyzeReport;
beforeAll(async () => {
  report = await analyzeTexts(WIDE_NAMES.map((name, i) => ({ name, text: transcript(1 + (i % 2), 9_000 + 700 * i) })));
}, 120_000);

describe("CJK and emoji file names", () => {
  it("the default table fits 100 display columns and every line of it ends in the same column", () => {
    const text = formatAnalyzeTable(report);
    expect(widestLine(text)).toBeLessThanOrEqual(ANALYZE_TEXT_WIDTH);
    const lines = text.split("\n\n")[0]!.split("\n");
    expect(lines).toHaveLength(1 + WIDE_NAMES.length + 1);
    expect(new Set(lines.map(displayColumns)).size).toBe(1);
    // Short names are whole; long ones are cut in the middle, never inside a glyph, and stay distinct.
    const names = lines.slice(1, -1).map((l) => l.split(/ {2,}/)[0]!);
    expect(names[3]).toBe("日本語のファイル名");
    expect(names[4]).toBe("한국어-에피소드-0005");
    expect(new Set(names).size).toBe(WIDE_NAMES.length);
    expect(names[2]).toMatch(/…/);
    expect(names[2]).not.toMatch(/\u200d…|…\u200d|\p{Extended_Pictographic}\u200d$/u);
    for (const name of names) expect(name).not.toMatch(/[\ud800-\udfff]/u);
  });

  it("a narrower width still fits, in display columns", () => {
    for (const width of [60, 80]) {
      const text = formatAnalyzeTable(report, { width });
      expect(widestLine(text), `width ${width}`).toBeLessThanOrEqual(width);
      const lines = text.split("\n\n")[0]!.split("\n");
      expect(new Set(lines.map(displayColumns)).size).toBe(1);
    }
  });

  it("--wide: the markdown table's bars line up in display columns", () => {
    const lines = formatAnalyzeTable(report, { wide: true }).split("\n");
    const bars = (line: string) => {
      const out: number[] = [];
      let col = 0;
      for (const g of graphemes(line)) {
        if (g === "|") out.push(col);
        col += graphemeColumns(g);
      }
      return out.join(",");
    };
    expect(new Set(lines.map(bars)).size).toBe(1);
  });

  it("the worst-file lines and wrapped text fit in display columns", () => {
    expect(widestLine(formatWorstFiles(report))).toBeLessThanOrEqual(ANALYZE_TEXT_WIDTH);
    expect(widestLine(formatWorstFiles(report, { width: 50 }))).toBeLessThanOrEqual(50);
    const wrapped = wrapText(`${WIDE_NAMES.join(" ")} 日本語日本語日本語日本語日本語`, 20);
    expect(widestLine(wrapped)).toBeLessThanOrEqual(20);
    expect(wrapped.replace(/\n/g, "")).toBe(`${WIDE_NAMES.join("")}日本語日本語日本語日本語日本語`);
  });
});
