// Per-turn chart of prompt tokens against the budget: plain SVG, no library.
const NS = "http://www.w3.org/2000/svg";

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

export function renderChart(
  container: HTMLElement,
  turns: Array<{ est_tokens: number; budget_ok: boolean }>,
  budget: number,
): void {
  container.replaceChildren();
  if (turns.length === 0) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = "No turns yet: send a chat message to see its prompt size.";
    container.append(p);
    return;
  }
  const width = 460;
  const height = 180;
  const pad = { left: 48, right: 12, top: 14, bottom: 26 };
  const max = Math.max(budget, ...turns.map((t) => t.est_tokens)) * 1.1;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const y = (v: number) => pad.top + plotH - (v / max) * plotH;
  const barW = Math.max(4, Math.min(36, plotW / turns.length - 6));
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-labelledby": "chart-desc",
    class: "chart-svg",
  });
  svg.append(
    el(
      "desc",
      { id: "chart-desc" },
      `Prompt tokens for ${turns.length} turns; budget ${budget} tokens; last turn ${turns.at(-1)!.est_tokens} tokens.`,
    ),
  );
  svg.append(el("line", { x1: pad.left, x2: pad.left, y1: pad.top, y2: pad.top + plotH, class: "axis" }));
  svg.append(
    el("line", { x1: pad.left, x2: width - pad.right, y1: pad.top + plotH, y2: pad.top + plotH, class: "axis" }),
  );
  for (const v of [0, Math.round(max / 2), Math.round(max)]) {
    svg.append(
      el("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, v.toLocaleString("en-US")),
    );
  }
  turns.forEach((t, i) => {
    const x = pad.left + 6 + i * (plotW / turns.length);
    const bar = el("rect", {
      x,
      y: y(t.est_tokens),
      width: barW,
      height: Math.max(1, pad.top + plotH - y(t.est_tokens)),
      class: t.budget_ok ? "bar" : "bar over",
      "data-turn": i + 1,
    });
    bar.append(el("title", {}, `turn ${i + 1}: ${t.est_tokens} tokens`));
    svg.append(bar);
    svg.append(
      el(
        "text",
        { x: x + barW / 2, y: y(t.est_tokens) - 4, "text-anchor": "middle", class: "value" },
        t.est_tokens.toLocaleString("en-US"),
      ),
    );
    svg.append(el("text", { x: x + barW / 2, y: height - 8, "text-anchor": "middle", class: "tick" }, String(i + 1)));
  });
  svg.append(el("line", { x1: pad.left, x2: width - pad.right, y1: y(budget), y2: y(budget), class: "budget" }));
  svg.append(
    el(
      "text",
      { x: width - pad.right, y: y(budget) - 4, "text-anchor": "end", class: "budget-label" },
      `budget ${budget.toLocaleString("en-US")}`,
    ),
  );
  container.append(svg);
}
