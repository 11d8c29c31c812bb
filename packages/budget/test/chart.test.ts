import { describe, expect, it } from "vitest";
import { renderBarChart } from "../src/chart.js";

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
});
