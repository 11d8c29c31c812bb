import { DOMParser } from "@xmldom/xmldom";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ANALYZE_TEXT_WIDTH,
  POLICY_NAMES,
  analyzeTexts,
  formatAnalyzeTable,
  formatSummary,
  formatTurnTable,
  formatWorstFiles,
  renderAnalyzeSvg,
  wrapText,
  type AnalyzeReport,
} from "../src/index.js";
import { transcript } from "./helpers.js";

const chars = (line: string) => Array.from(line).length;
const widest = (text: string) => Math.max(...text.split("\n").map(chars));

// 14 transcripts with long names (two differ only in the middle), small and large ones.
const INPUTS = Array.from({ length: 14 }, (_, i) => ({
  name:
    i === 1
      ? "benchmark-suite__agent-run-with-a-very-long-name-part-B__episode-0007.jsonl"
      : i === 0
        ? "benchmark-suite__agent-run-with-a-very-long-name-part-A__episode-0007.jsonl"
        : `benchmark-suite__agent-run-${i}__episode-${String(i).padStart(4, "0")}.jsonl`,
  text: i % 3 === 2 ? transcript(1, 0) : transcript(2 + (i % 3), 12_000 + 1_500 * i),
}));

let report: AnalyzeReport;
beforeAll(async () => {
  report = await analyzeTexts(INPUTS);
}, 120_000);

describe("the default table fits 100 columns", () => {
  it("one row per file and a total, names shortened and distinct, numbers right-aligned", () => {
    const text = formatAnalyzeTable(report);
    expect(widest(text)).toBeLessThanOrEqual(ANALYZE_TEXT_WIDTH);
    const [table, wrapped] = text.split("\n\n");
    const key = wrapped!.replace(/\s+/g, " ");
    const lines = table!.split("\n");
    expect(lines).toHaveLength(1 + INPUTS.length + 1);
    expect(lines[0]).toMatch(
      /^transcript \(\.jsonl\) +calls +naive +window +append +deepag +claude +a\.clear +swe5 +viol$/,
    );
    const names = lines.slice(1, -1).map((l) => l.split(/ {2,}/)[0]!);
    expect(new Set(names).size).toBe(INPUTS.length);
    expect(names[0]).not.toBe(names[1]);
    expect(lines.at(-1)).toMatch(/^total \(14 files\) /);
    // Every column ends where its header ends: all lines of the table are equally long.
    expect(new Set(lines.map(chars)).size).toBe(1);
    // tokens/cost in whole percents of naive; the total row matches the report.
    const total = lines.at(-1)!.split(/ +/);
    const window = `${Math.round((100 * report.strategies.window.tokens) / report.naive_tokens)}/${Math.round((100 * report.strategies.window.cost) / report.naive_cost)}`;
    expect(total).toContain(window);
    for (const name of POLICY_NAMES) expect(key).toContain(`= ${name}`);
    expect(key).toContain("--wide");
  });

  it("a narrower width drops the least needed columns and says which", () => {
    const text = formatAnalyzeTable(report, { width: 60 });
    expect(widest(text)).toBeLessThanOrEqual(60);
    expect(text.replace(/\s+/g, " ")).toMatch(/Left out to fit 60 columns: calls, naive, /);
    expect(text.split("\n")[0]).toMatch(/ window +append/);
  });

  it("--wide keeps every column with one decimal, as a padded markdown table", () => {
    const wide = formatAnalyzeTable(report, { wide: true }).split("\n");
    for (const header of ["floor", "refs", "budget violations", "rehydration mismatches", ...POLICY_NAMES])
      expect(wide[0]).toContain(` ${header} `);
    expect(wide[1]).toMatch(/^\|-+\|-+:\|/);
    expect(new Set(wide.map(chars)).size).toBe(1);
    expect(wide[2]).toContain(INPUTS[0]!.name);
    expect(wide[2]).toMatch(/\d+\.\d% \/ \d+\.\d%/);
    expect(widest(wide.join("\n"))).toBeGreaterThan(ANALYZE_TEXT_WIDTH);
  });

  it("the per-call table, the summary and the worst-file lines fit too", () => {
    const file = INPUTS[4]!.name;
    const turns = formatTurnTable(report, file);
    expect(widest(turns)).toBeLessThanOrEqual(ANALYZE_TEXT_WIDTH);
    const rows = turns.split("\n\n")[0]!.split("\n");
    expect(rows[0]).toMatch(/^call +msg +naive +refs +window +append +n\.pfx +w\.pfx +a\.pfx +fetch +compact +viol$/);
    expect(rows).toHaveLength(1 + report.turns.filter((t) => t.file === file).length);
    expect(formatTurnTable(report, file, { wide: true }).split("\n")[0]).toContain("| window prefix |");
    const summary = formatSummary(report);
    expect(widest(summary)).toBeLessThanOrEqual(ANALYZE_TEXT_WIDTH);
    expect(summary).not.toMatch(/%\n +\//); // a pair "x% / y%" is never split
    expect(summary.replace(/\n {2}/g, " ")).toBe(formatSummary(report, { wide: true }));
    expect(widest(formatSummary(report, { wide: true }))).toBeGreaterThan(ANALYZE_TEXT_WIDTH);
    const worst = formatWorstFiles(report);
    expect(widest(worst)).toBeLessThanOrEqual(ANALYZE_TEXT_WIDTH);
    // The transcripts of short outputs only gain nothing: a window-tokens worst file is one of them.
    const small = INPUTS.filter((_, i) => i % 3 === 2).map((x) => x.name);
    const line = worst.split("\n").find((l) => l.includes("window tokens"))!;
    expect(small.some((n) => line.endsWith(n))).toBe(true);
    expect(line).toContain("100.0%");
  });

  it("wraps text at spaces and cuts words longer than a line", () => {
    expect(wrapText("aa bb cc dd", 5)).toBe("aa bb\ncc dd");
    expect(wrapText("aa bb cc", 6, "  ")).toBe("aa bb\n  cc");
    expect(wrapText("x".repeat(12), 5)).toBe("xxxxx\nxxxxx\nxx");
    expect(wrapText("", 5)).toBe("");
  });
});

describe("the SVG (the shared bar-chart renderer)", () => {
  it("is well-formed XML: per panel one label per file and the total, one series per policy, a legend", () => {
    const svg = renderAnalyzeSvg(report);
    const errors: string[] = [];
    const doc = new DOMParser({
      onError: (level, message) => void errors.push(`${level}: ${message}`),
    }).parseFromString(svg, "image/svg+xml");
    expect(errors).toEqual([]);
    const root = doc.documentElement!;
    expect(root.nodeName).toBe("svg");
    expect(svg).not.toMatch(/<script|@import|url\(|href=/);
    const panels = Array.from(root.getElementsByTagName("svg"));
    expect(panels.map((p) => p.getAttribute("class"))).toEqual(["analyze-tokens", "analyze-cost"]);
    const groups = INPUTS.length + 1;
    for (const panel of panels) {
      const labels = Array.from(panel.getElementsByTagName("text")).filter(
        (t) => t.getAttribute("class") === "group-label",
      );
      expect(labels).toHaveLength(groups);
      const shown = labels.map((l) => l.lastChild!.nodeValue!);
      expect(new Set(shown).size).toBe(groups);
      for (const name of shown) expect(chars(name)).toBeLessThanOrEqual(28);
      expect(shown.at(-1)).toBe(`total (${INPUTS.length} files)`);
      // Every file's full name is in its label's tooltip.
      for (const [i, input] of INPUTS.entries()) {
        expect(labels[i]!.getElementsByTagName("title")[0]?.textContent).toBe(input.name);
      }
      const legend = Array.from(panel.getElementsByTagName("g")).filter((g) => g.getAttribute("class") === "legend");
      expect(legend.map((g) => g.textContent)).toEqual([
        "window (artifact-refs)",
        "append (artifact-refs)",
        ...POLICY_NAMES,
      ]);
      const bars = Array.from(panel.getElementsByTagName("rect")).filter((r) => r.getAttribute("class") === "bar");
      expect(bars).toHaveLength(groups * (2 + POLICY_NAMES.length));
      for (let k = 0; k < 2 + POLICY_NAMES.length; k++)
        expect(bars.filter((b) => b.getAttribute("data-series") === String(k))).toHaveLength(groups);
      expect(panel.getElementsByTagName("line").length).toBeGreaterThan(0);
    }
  });

  it("draws each bar at its share of naive: the window bar of the total is its token ratio", () => {
    const svg = renderAnalyzeSvg(report);
    const share = Math.round((1000 * report.strategies.window.tokens) / report.naive_tokens) / 10;
    expect(svg).toContain(
      `<title>total (${INPUTS.length} files): window (artifact-refs) ${share}% of naive input tokens</title>`,
    );
  });
});
