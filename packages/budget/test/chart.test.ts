import { describe, expect, it } from "vitest";
import { niceTicks, renderBarChart, shortenLabel, shortenLabels } from "../src/chart.js";

describe("renderBarChart (the shared prompt-size chart)", () => {
  it("draws one bar per value and series, marks those over the budget, and the budget line", () => {
    const svg = renderBarChart({
      description: "tokens per call",
      series: [
        { label: "naive", color: "#ccc", values: [100, 200, 300] },
        { label: "refs", color: "#00f", overColor: "#f00", values: [50, 90, 120], over: [false, false, true] },
      ],
      budget: { value: 100, label: "budget 100 tokens" },
      valueLabels: true,
      xTicks: true,
    });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(5);
    expect(svg.match(/<rect class="bar over"[^>]*fill="#f00"/g)).toHaveLength(1);
    expect(svg.match(/<text class="value"/g)).toHaveLength(6);
    expect(svg).toContain('class="budget-label"');
    expect(svg).toContain("budget 100 tokens");
    expect(svg.match(/class="legend"/g)).toHaveLength(2);
    // Taller value → higher bar (smaller y); the budget line sits between 90 and 120.
    const yOf = (series: number, index: number) =>
      Number(new RegExp(`data-series="${series}" data-index="${index}" x="[\\d.]+" y="([\\d.]+)"`).exec(svg)![1]);
    expect(yOf(0, 3)).toBeLessThan(yOf(0, 1));
    const budgetY = Number(/<line class="budget"[^>]* y1="([\d.]+)"/.exec(svg)![1]);
    expect(budgetY).toBeGreaterThan(yOf(1, 3));
    expect(budgetY).toBeLessThan(yOf(1, 2));
  });

  it("escapes every text it is given and copes with no data", () => {
    const svg = renderBarChart({
      description: 'a <b>"quoted"</b> & chart',
      series: [{ label: "<script>", color: '"red"', values: [] }],
      legend: true,
      attributes: { class: 'x" onload="alert(1)' },
    });
    expect(svg).not.toContain("<script>");
    expect(svg).not.toContain("<b>");
    expect(svg).toContain("&lt;script&gt;");
    expect(svg).not.toContain('" onload="');
    expect(svg).not.toContain('<rect class="bar"');
  });

  it("labels each group by name: side by side when they fit, else shortened and rotated, full name in a tooltip", () => {
    const series = [
      { label: "a", color: "#00f", values: [10, 20, 30] },
      { label: "b", color: "#0f0", values: [5, 15, 25] },
    ];
    const names = ["alpha.jsonl", "a-very-long-transcript-name-from-some-benchmark-0001.jsonl", "gamma"];
    const few = renderBarChart({ description: "d", series, groupLabels: names });
    const labels = (svg: string) => [
      ...svg.matchAll(/<text class="group-label"[^>]*>(?:<title>([^<]*)<\/title>)?([^<]*)<\/text>/g),
    ];
    expect(labels(few).map((m) => m[2])).toEqual(["alpha.jsonl", "a-very-lon…chmark-0001.jsonl", "gamma"]);
    expect(labels(few)[1]![1]).toBe(names[1]);
    expect(few).not.toContain("rotate(");
    expect(few).toContain("<title>a alpha.jsonl: 10</title>");
    const many = Array.from({ length: 40 }, (_, i) => `transcript-number-${i}-of-a-long-series.jsonl`);
    const crowded = renderBarChart({
      description: "d",
      series: [{ label: "a", color: "#00f", values: many.map((_, i) => i) }],
      groupLabels: many,
      groupTitles: many.map((n) => `file ${n}`),
    });
    const shown = labels(crowded);
    expect(shown).toHaveLength(40);
    expect(new Set(shown.map((m) => m[2])).size).toBe(40);
    for (const m of shown) expect(Array.from(m[2]!).length).toBeLessThanOrEqual(28);
    expect(shown[0]![1]).toBe(`file ${many[0]}`);
    expect(crowded.match(/rotate\(-45 /g)).toHaveLength(40);
    // The rotated names get room: the chart grows taller than asked and the plot starts further right.
    expect(Number(/height="(\d+)"/.exec(crowded)![1])).toBeGreaterThan(300);
    expect(Number(/<line class="axis" x1="(\d+)"/.exec(crowded)![1])).toBeGreaterThan(64);
  });

  it("wraps the legend into rows that fit, and formats values with formatValue", () => {
    const series = Array.from({ length: 8 }, (_, i) => ({
      label: `series number ${i}`,
      color: "#123",
      values: [i * 10],
    }));
    const svg = renderBarChart({ description: "d", series, width: 400, formatValue: (v) => `${v}%` });
    const rows = new Set([...svg.matchAll(/<g class="legend"><rect x="[\d.]+" y="(\d+)"/g)].map((m) => m[1]));
    expect(rows.size).toBeGreaterThan(1);
    for (const m of svg.matchAll(/<g class="legend"><rect x="([\d.]+)"/g)) expect(Number(m[1])).toBeLessThan(400);
    expect(svg).toContain(">20%</text>");
    expect(svg).toContain("<title>series number 7 1: 70%</title>");
  });

  it("puts ticks on round numbers, at or above the largest value", () => {
    expect(niceTicks(100)).toEqual([0, 25, 50, 75, 100, 125]);
    expect(niceTicks(244.5)).toEqual([0, 100, 200, 300]);
    expect(niceTicks(8_000)).toEqual([0, 2_000, 4_000, 6_000, 8_000, 10_000]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(0)).toEqual([0]);
  });

  it("shortens labels in the middle, keeps them distinct, never splits a surrogate pair", () => {
    expect(shortenLabel("short", 10)).toBe("short");
    expect(shortenLabel("abcdefghijklmnopqrstuvwxyz", 11)).toBe("abcd…uvwxyz");
    expect(Array.from(shortenLabel("😀".repeat(30), 9))).toHaveLength(9);
    const same = ["prefix-long-middle-part-ONE-common-tail.jsonl", "prefix-long-middle-part-TWO-common-tail.jsonl"];
    const out = shortenLabels(same, 16);
    expect(new Set(out).size).toBe(2);
    for (const s of out) expect(Array.from(s).length).toBeLessThanOrEqual(16);
    const identicalEnds = shortenLabels(["A-xxxxxxxxxxxxxxxxxxxx-tail", "B-xxxxxxxxxxxxxxxxxxxx-tail"], 10);
    expect(new Set(identicalEnds).size).toBe(2);
  });
});
