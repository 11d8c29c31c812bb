import { countTokens } from "@artifact-refs/budget";
import { describe, expect, it } from "vitest";
import { callCost, commonPrefixLength, prefixTokens, renderMessage } from "@artifact-refs/context";
import {
  AnalyzeReportSchema,
  POLICY_NAMES,
  analyzeTexts,
  anthropicClearPolicy,
  claudeCodePolicy,
  deepagentsPolicy,
  formatAnalyzeTable,
  formatTurnTable,
  renderAnalyzeSvg,
  sweAgentPolicy,
  type ReplayMessage,
} from "../src/index.js";
import { bigLog } from "./helpers.js";

const count = (t: string) => countTokens(t);

describe("cache-weighted accounting", () => {
  const parts = (...texts: string[]) => texts.map((text) => ({ text, tokens: count(text) }));

  it("counts whole equal parts, then the common prefix of the first differing part", () => {
    const a = parts("system prompt\n", "task text\n", "turn one: ls -la\n");
    const b = parts("system prompt\n", "task text\n", "turn one: cat x\n", "more\n");
    expect(prefixTokens(undefined, b, count)).toBe(0);
    expect(prefixTokens(a, a, count)).toBe(a.reduce((n, p) => n + p.tokens, 0));
    const shared = a[0]!.tokens + a[1]!.tokens + count("turn one: ");
    expect(prefixTokens(a, b, count)).toBe(shared);
    const c = callCost(a, b, count);
    const total = b.reduce((n, p) => n + p.tokens, 0);
    expect(c.tokens).toBe(total);
    expect(c.cost).toBeCloseTo(0.1 * shared + 1.25 * (total - shared), 6);
  });

  it("finds common prefixes of long strings and never splits a surrogate pair", () => {
    const head = "x".repeat(10_000);
    expect(commonPrefixLength(`${head}abc`, `${head}abd`)).toBe(10_002);
    expect(commonPrefixLength("😀a", "😃a")).toBe(0);
    expect(commonPrefixLength("", "abc")).toBe(0);
  });
});

describe("peer policies (published defaults)", () => {
  const tools = (n: number, content = (i: number) => `out ${i}\nline 2\nline 3`): ReplayMessage[] => {
    const out: ReplayMessage[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "task" },
    ];
    for (let i = 0; i < n; i++) {
      out.push({ role: "assistant", content: `step ${i}` });
      out.push({ role: "tool", content: content(i), tool_name: "bash" });
    }
    return out;
  };
  const ctx = (naiveTokens: number) => ({ naiveTokens, count });

  it("SWE-agent keeps the last 5 observations; older ones become a one-line note", () => {
    const m = tools(7);
    const shown = m.map((x, i) => (x.role === "tool" ? sweAgentPolicy.toolContent(m, i, m.length, ctx(0)) : x.content));
    const toolShown = shown.filter((_, i) => m[i]!.role === "tool");
    expect(toolShown.slice(0, 2)).toEqual([
      "Old environment output: (3 lines omitted)",
      "Old environment output: (3 lines omitted)",
    ]);
    expect(toolShown.slice(2)).toEqual([2, 3, 4, 5, 6].map((i) => `out ${i}\nline 2\nline 3`));
  });

  it("Anthropic context editing clears all but the last 3 tool results only above 100k input tokens", () => {
    const m = tools(6);
    const below = m.map((x, i) =>
      x.role === "tool" ? anthropicClearPolicy.toolContent(m, i, m.length, ctx(99_000)) : x.content,
    );
    expect(below).toEqual(m.map((x) => x.content));
    const above = m
      .map((x, i) => (x.role === "tool" ? anthropicClearPolicy.toolContent(m, i, m.length, ctx(120_000)) : null))
      .filter((x) => x !== null);
    expect(above.slice(0, 3).every((x) => /cleared/.test(x!))).toBe(true);
    expect(above.slice(3)).toEqual(["out 3\nline 2\nline 3", "out 4\nline 2\nline 3", "out 5\nline 2\nline 3"]);
  });

  it("deepagents evicts results above 20k tokens with a 5+5-line head/tail preview", () => {
    const big = bigLog(200_000);
    const m = tools(1, () => big);
    expect(count(big)).toBeGreaterThan(20_000);
    const shown = deepagentsPolicy.toolContent(m, 3, m.length, ctx(0));
    const lines = big.split("\n");
    expect(shown).toContain("/large_tool_results/");
    expect(shown).toContain(lines.slice(0, 5).join("\n"));
    expect(shown).toContain(`... [${lines.length - 10} lines truncated] ...`);
    expect(shown.length).toBeLessThan(3_000);
    const small = tools(1, () => bigLog(40_000));
    expect(deepagentsPolicy.toolContent(small, 3, small.length, ctx(0))).toBe(small[3]!.content);
  });

  it("Claude Code saves results above 50k chars to a file and shows a 2 KB preview", () => {
    const big = bigLog(60_000);
    const m = tools(1, () => big);
    const shown = claudeCodePolicy.toolContent(m, 3, m.length, ctx(0));
    expect(shown).toMatch(/^Output too large \(\d+ characters\)\. Full output saved to: /);
    expect(shown).toContain(big.slice(0, 2_000));
    expect(shown).not.toContain(big.slice(0, 2_001));
    const under = tools(1, () => bigLog(49_000));
    expect(claudeCodePolicy.toolContent(under, 3, under.length, ctx(0))).toBe(under[3]!.content);
  });
});

describe("analyze report", () => {
  const transcript: ReplayMessage[] = [
    { role: "system", content: "You are an agent." },
    { role: "user", content: "Find the error in the log." },
    { role: "assistant", content: "```bash\ncat app.log\n```" },
    { role: "tool", content: bigLog(30_000), tool_name: "bash" },
    { role: "assistant", content: "```bash\ngrep ERROR app.log | head\n```" },
    { role: "tool", content: "1:17 ERROR worker-3 handled request\n", tool_name: "bash" },
    { role: "assistant", content: "The error is in worker-3." },
  ];
  const text = `${transcript.map((m) => JSON.stringify(m)).join("\n")}\n`;

  it("computes naive, floor, refs, strategies and policies per call and in total", async () => {
    const r = await analyzeTexts([{ name: "t.jsonl", text }]);
    expect(AnalyzeReportSchema.parse(r)).toBeTruthy();
    expect(r.calls).toBe(3);
    expect(r.turns.map((t) => t.index)).toEqual([2, 4, 6]);
    const msgTokens = transcript.map((m) =>
      count(renderMessage({ role: m.role, content: m.content, ...(m.role === "tool" ? { name: m.tool_name! } : {}) })),
    );
    const before = (i: number) => msgTokens.slice(0, i).reduce((a, b) => a + b, 0);
    expect(r.turns.map((t) => t.naive_tokens)).toEqual([before(2), before(4), before(6)]);
    expect(r.naive_tokens).toBe(before(2) + before(4) + before(6));
    expect(r.floor_tokens).toBe(3 * (msgTokens[0]! + msgTokens[1]!));
    // Naive is append-only: every call after the first re-sends the previous prompt as a prefix.
    expect(r.turns[1]!.naive_prefix_share).toBeCloseTo(before(2) / before(4), 2);
    // The 30k output is externalized once and fetched once, in the call after it.
    expect(r.externalized).toBe(1);
    expect(r.turns.map((t) => t.fetches)).toEqual([0, 1, 0]);
    expect(r.refs_tokens).toBeLessThan(r.naive_tokens);
    expect(r.turns[2]!.refs_tokens).toBeLessThan(r.turns[2]!.naive_tokens / 2);
    expect(r.strategies.window.tokens).toBeLessThan(r.naive_tokens);
    expect(r.rehydration_mismatches).toBe(0);
    expect(r.budget_violations).toBe(0);
    for (const name of POLICY_NAMES) expect(r.policies[name].tokens).toBeGreaterThan(0);
    // Totals are the sums of the calls.
    expect(r.strategies.append.tokens).toBe(r.turns.reduce((n, t) => n + t.append_tokens, 0));
  });

  it("a smaller fetch cap lowers the call after the externalized output", async () => {
    const big = await analyzeTexts([{ name: "t.jsonl", text }], { fetchChars: 8_000 });
    const small = await analyzeTexts([{ name: "t.jsonl", text }], { fetchChars: 1_000 });
    expect(small.turns[1]!.refs_tokens).toBeLessThan(big.turns[1]!.refs_tokens);
    expect(small.turns[2]!.refs_tokens).toBe(big.turns[2]!.refs_tokens);
    expect(small.settings.fetch_chars).toBe(1_000);
  });

  it("is deterministic", async () => {
    const a = await analyzeTexts([{ name: "t.jsonl", text }]);
    const b = await analyzeTexts([{ name: "t.jsonl", text }]);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it("renders a table with a row per file and a total, a per-call table, and a self-contained SVG", async () => {
    const r = await analyzeTexts([
      { name: "one.jsonl", text },
      { name: "two.jsonl", text },
    ]);
    const table = formatAnalyzeTable(r).split("\n\n")[0]!.split("\n");
    expect(table).toHaveLength(1 + 2 + 1);
    expect(table[1]).toMatch(/^one {2,}3 /);
    expect(table[3]).toMatch(/^total \(2 files\) {2,}6 /);
    const wide = formatAnalyzeTable(r, { wide: true }).split("\n");
    expect(wide).toHaveLength(2 + 2 + 1);
    expect(wide[2]).toMatch(/^\| one\.jsonl +\| +3 \|/);
    expect(wide[4]).toMatch(/^\| \*\*total \(2 files\)\*\* +\| +6 \|/);
    expect(formatTurnTable(r, "two.jsonl").split("\n\n")[0]!.split("\n")).toHaveLength(1 + 3);
    expect(formatTurnTable(r, "two.jsonl", { wide: true }).split("\n")).toHaveLength(2 + 3);
    const svg = renderAnalyzeSvg(r);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    // Two panels (tokens, cost) of 3 groups (two files and the total) × 6 policies.
    expect((svg.match(/<rect class="bar"/g) ?? []).length).toBe(2 * 3 * 6);
    expect(svg).not.toMatch(/<script|@import|url\(|href=/);
    expect(svg.replaceAll('xmlns="http://www.w3.org/2000/svg"', "")).not.toMatch(/https?:/);
  });
});
