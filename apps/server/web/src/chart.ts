// Per-turn chart of prompt tokens against the budget: the shared SVG renderer of @artifact-refs/budget
// (the same one the demo report uses), inserted as markup (every text in it is escaped by the renderer).
import { renderBarChart } from "@artifact-refs/budget/chart";

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
  container.innerHTML = renderBarChart({
    description: `Prompt tokens for ${turns.length} turns; budget ${budget} tokens; last turn ${turns.at(-1)!.est_tokens} tokens.`,
    series: [
      {
        label: "prompt tokens",
        color: "#2b7de9",
        overColor: "#d9342b",
        values: turns.map((t) => t.est_tokens),
        over: turns.map((t) => !t.budget_ok),
      },
    ],
    title: (s, i) => `turn ${i + 1}: ${s.values[i]} tokens`,
    budget: { value: budget, label: `budget ${budget.toLocaleString("en-US")}` },
    width: 460,
    height: 180,
    valueLabels: true,
    xTicks: true,
    attributes: { class: "chart-svg" },
  });
}
