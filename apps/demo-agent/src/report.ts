import { renderBarChart } from "@artifact-refs/budget";
import { applySelector } from "@artifact-refs/resolve";
import type { ArtifactStore } from "@artifact-refs/store";

/** One model call of the demo, as the table and the report show it. */
export interface CallRow {
  call: number;
  /** Index of the user request this call serves (1-based). */
  request: number;
  /** Tokens the naive transcript would send for this call (everything so far, payloads inline). */
  naiveTokens: number;
  /** Tokens of the prompt artifact-refs actually assembled. */
  refsTokens: number;
  hotStateTokens: number;
  budgetOk: boolean;
  violations: number;
  /** Tool results stashed (externalized) after this call. */
  stashed: number;
  /** artifacts_get calls answered after this call. */
  fetched: number;
  /** What the model did: tool names or "answer". */
  action: string;
}

export interface DemoSummary {
  session: string;
  provider: string;
  strategy: string;
  store: string;
  calls: CallRow[];
  requests: Array<{ text: string; answer: string; referenced: string[] }>;
  naiveTotal: number;
  refsTotal: number;
  savedPct: number;
  rehydrated: number;
  rehydrationMismatches: number;
  transcriptPath: string;
  metricsPath: string;
  maxPromptTokens: number;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** An artifact the report opens in place: a bounded slice of its stored content. */
export interface ReportArtifact {
  /** The short ref as the run printed it (`art:<hex>`). */
  ref: string;
  label?: string;
  type?: string;
  size_bytes: number;
  /** The first and last lines, at most REPORT_ARTIFACT_MAX_CHARS characters (the same selector the bounded viewer uses). */
  text: string;
  truncated: boolean;
  total_chars: number;
  total_lines: number;
}

/** Characters of an artifact the report shows in place (the rest is one `aref fetch` away). */
export const REPORT_ARTIFACT_MAX_CHARS = 4_000;
const REF_RE = /art:[0-9a-f]{12,64}/g;

/** Every `art:` ref the texts mention, once each, in order of first mention. */
export function refsMentioned(texts: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const text of texts) for (const ref of text.match(REF_RE) ?? []) seen.add(ref);
  return [...seen];
}

/**
 * Reads a bounded slice (head and tail lines, at most `maxChars`) of every artifact the summary
 * mentions (answers, referenced refs, actions), from the session's store. A ref the store cannot
 * resolve (expired, removed) is left out: the report shows it as plain text.
 */
export async function reportArtifacts(
  store: ArtifactStore,
  session: string,
  summary: Pick<DemoSummary, "requests" | "calls">,
  maxChars = REPORT_ARTIFACT_MAX_CHARS,
): Promise<ReportArtifact[]> {
  const refs = refsMentioned([
    ...summary.requests.flatMap((r) => [r.answer, ...r.referenced]),
    ...summary.calls.map((c) => c.action),
  ]);
  const out: ReportArtifact[] = [];
  for (const ref of refs) {
    try {
      const record = await store.getRecord(ref, { session });
      const reference = await store.reference(session, ref).catch(() => undefined);
      const selection = applySelector(await store.getText(ref, { session }), {
        mode: "headtail",
        head: 60,
        tail: 20,
        maxChars,
      });
      const label = reference?.label ?? record.label;
      out.push({
        ref,
        ...(label ? { label } : {}),
        type: reference?.type ?? record.type,
        size_bytes: record.size_bytes,
        text: selection.text,
        truncated: selection.truncated,
        total_chars: selection.total_chars,
        total_lines: selection.total_lines,
      });
    } catch {
      // Not in the store any more (or binary): the ref stays plain text in the report.
    }
  }
  return out;
}

const formatSize = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** One artifact opened in place: a `<details>` whose summary is the ref and whose body is the bounded content. */
function artifactDetails(artifact: ReportArtifact): string {
  const meta = [
    artifact.label ? esc(artifact.label) : undefined,
    artifact.type ? esc(artifact.type) : undefined,
    formatSize(artifact.size_bytes),
    artifact.truncated
      ? `showing ${artifact.text.length.toLocaleString("en-US")} of ${artifact.total_chars.toLocaleString("en-US")} characters (${artifact.total_lines.toLocaleString("en-US")} lines); the rest: <code>aref fetch ${artifact.ref}</code>`
      : "whole content",
  ].filter((x) => x !== undefined);
  return `<details class="art" data-ref="${artifact.ref}"><summary><code>${artifact.ref}</code></summary><span class="art-body"><span class="meta">${meta.join(" · ")}</span><span class="content">${esc(artifact.text)}</span></span></details>`;
}

/** Escapes `text` and turns every `art:` ref the report has content for into a `<details>` that opens it in place. */
function withArtifacts(text: string, artifacts: Map<string, ReportArtifact>): string {
  let out = "";
  let at = 0;
  for (const match of text.matchAll(REF_RE)) {
    const artifact = artifacts.get(match[0]);
    if (!artifact) continue;
    out += esc(text.slice(at, match.index)) + artifactDetails(artifact);
    at = match.index + match[0].length;
  }
  return out + esc(text.slice(at));
}

/** Plain-text per-call table for the terminal. */
export function renderTable(rows: CallRow[]): string {
  const header = [
    "call",
    "req",
    "naive tok",
    "refs tok",
    "saved",
    "hot-state tok",
    "budget",
    "stashed",
    "fetched",
    "action",
  ];
  const body = rows.map((r) => [
    String(r.call),
    String(r.request),
    r.naiveTokens.toLocaleString("en-US"),
    r.refsTokens.toLocaleString("en-US"),
    r.naiveTokens > 0 ? `${Math.round((1 - r.refsTokens / r.naiveTokens) * 100)}%` : "–",
    String(r.hotStateTokens),
    r.budgetOk ? "ok" : `VIOLATED (${r.violations})`,
    String(r.stashed),
    String(r.fetched),
    r.action,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 2 && i <= 7 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** Naive vs artifact-refs tokens per model call against the budget (the shared chart renderer of @artifact-refs/budget). */
export function renderChart(rows: CallRow[], maxPromptTokens: number): string {
  return renderBarChart({
    description: "Prompt tokens per model call: naive transcript vs artifact-refs",
    series: [
      { label: "naive transcript", color: "#c8ccd4", values: rows.map((r) => r.naiveTokens) },
      {
        label: "with artifact-refs",
        color: "#2b7de9",
        overColor: "#d9342b",
        values: rows.map((r) => r.refsTokens),
        over: rows.map((r) => !r.budgetOk),
      },
    ],
    title: (s, i) =>
      `call ${rows[i]?.call ?? i + 1}: ${s.label === "naive transcript" ? "naive" : "artifact-refs"} ${s.values[i]} tokens`,
    budget: { value: maxPromptTokens, label: `budget ${maxPromptTokens.toLocaleString("en-US")} tokens` },
    xLabel: "model call",
  });
}

/**
 * A self-contained HTML report (no external requests, no script). Every `art:` ref with an entry in
 * `artifacts` opens its stored content (bounded) in place.
 */
export function renderReport(summary: DemoSummary, artifactList: ReportArtifact[] = []): string {
  const artifacts = new Map(artifactList.map((a) => [a.ref, a]));
  const rows = summary.calls
    .map(
      (r) =>
        `<tr><td>${r.call}</td><td>${r.request}</td><td class="n">${r.naiveTokens.toLocaleString("en-US")}</td><td class="n">${r.refsTokens.toLocaleString("en-US")}</td><td class="n">${r.hotStateTokens}</td><td>${r.budgetOk ? "ok" : `<b class="bad">violated (${r.violations})</b>`}</td><td class="n">${r.stashed}</td><td class="n">${r.fetched}</td><td>${withArtifacts(r.action, artifacts)}</td></tr>`,
    )
    .join("\n");
  const requests = summary.requests
    .map(
      (q) =>
        `<li><p class="q">${esc(q.text)}</p>${q.referenced.length ? `<p class="ref">referenced: ${q.referenced.map((r) => (artifacts.has(r) ? withArtifacts(r, artifacts) : `<code>${esc(r)}</code>`)).join(", ")}</p>` : ""}<div class="answer">${withArtifacts(q.answer, artifacts)}</div></li>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>artifact-refs demo report — ${esc(summary.session)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:980px;color:#222;padding:0 16px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #e3e3e3;padding:4px 8px;text-align:left}td.n,th.n{text-align:right}
.kpi{display:flex;gap:16px;flex-wrap:wrap}.kpi div{background:#f4f6fa;border-radius:8px;padding:10px 14px}.kpi b{display:block;font-size:20px}
.bad{color:#d9342b}pre{background:#f7f7f7;padding:8px;white-space:pre-wrap;border-radius:6px}code{background:#f0f0f0;padding:1px 4px;border-radius:3px}
.q{margin:12px 0 2px}.ref{margin:0;color:#555;font-size:12px}ol{padding-left:18px}
.answer{background:#f7f7f7;padding:8px;white-space:pre-wrap;border-radius:6px;font-family:ui-monospace,monospace;font-size:13px}
details.art{display:inline}details.art[open]{display:block;margin:4px 0}details.art summary{cursor:pointer;display:inline}
.art-body{display:block;border:1px solid #d8dce3;border-radius:6px;background:#fff;margin:4px 0;padding:6px 8px}
.art-body .meta{display:block;color:#555;font:12px system-ui,sans-serif;margin-bottom:4px}
.art-body .content{display:block;white-space:pre-wrap;max-height:24em;overflow:auto;font:12px/1.4 ui-monospace,monospace}
</style></head><body>
<h1>artifact-refs demo report</h1>
<p>Session <code>${esc(summary.session)}</code> · model: <b>${esc(summary.provider)}</b> · strategy <code>${esc(summary.strategy)}</code> · store <code>${esc(summary.store)}</code></p>
<div class="kpi">
<div>naive input tokens<b>${summary.naiveTotal.toLocaleString("en-US")}</b></div>
<div>with artifact-refs<b>${summary.refsTotal.toLocaleString("en-US")}</b></div>
<div>saved<b>${summary.savedPct.toFixed(1)}%</b></div>
<div>outputs rehydrated byte-exact<b>${summary.rehydrated - summary.rehydrationMismatches} / ${summary.rehydrated}</b></div>
<div>budget violations<b>${summary.calls.reduce((n, r) => n + r.violations, 0)}</b></div>
</div>
<h2>Prompt tokens per model call</h2>
<figure id="chart">${renderChart(summary.calls, summary.maxPromptTokens)}</figure>
<h2>Per call</h2>
<table><thead><tr><th>call</th><th>request</th><th class="n">naive tokens</th><th class="n">refs tokens</th><th class="n">hot-state tokens</th><th>budget</th><th class="n">stashed</th><th class="n">fetched</th><th>action</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<h2>Requests and answers</h2>
<ol>${requests}</ol>
<p>Transcript: <code>${esc(summary.transcriptPath)}</code> (open it with <code>aref analyze</code>) · metrics: <code>${esc(summary.metricsPath)}</code></p>
</body></html>
`;
}
