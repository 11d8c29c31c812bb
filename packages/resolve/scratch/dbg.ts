import { readFileSync } from "node:fs";
import { parseQuery } from "../src/resolution/query.js";
import { indexExecution } from "../src/resolution/executions.js";
import { scoreContext, scoreExecution } from "../src/resolution/score.js";
import { resolveReferences } from "../src/index.js";
const file = process.argv[3] ?? "/work/shared/data/references/dev.json";
const data = JSON.parse(readFileSync(file, "utf8"));
const qid = process.argv[2]!;
for (const s of data.scenarios) for (const q of s.queries) if (q.id === qid) {
  const ex = s.executions.slice(0, s.executions.findIndex((e: any) => e.id === q.after) + 1);
  const p = parseQuery(q.text);
  console.log(q.text, q.expected, JSON.stringify({ ...p, hints: [...p.hints], terms: p.terms.map((t) => `${t.word}/${t.weight}${t.related.length ? "~" + t.related.slice(0, 4).join("|") : ""}`) }));
  const xs = ex.map((e: any, i: number) => indexExecution(e, i));
  const ctx = scoreContext(p, xs); const idf = ctx.idf;
  console.log([...idf].map(([k, v]) => `${k}:${v.toFixed(2)}`).join(" "));
  for (const x of xs) { const r = scoreExecution(p, x, ctx); console.log(x.id, r.total.toFixed(2), `t=${r.text.toFixed(2)} tool=${r.tool} o=${r.outcome} named=${r.named} cov=${r.coverage.toFixed(2)}`, r.reasons.join(" | ")); }
  console.log(JSON.stringify(resolveReferences(q.text, ex)));
}
