import { resolveReferences } from "../src/index.js";
import { executions } from "../bench/fixtures.js";
for (const n of [1000, 10000]) {
  const ex = executions(n);
  for (const q of ["summarize what I just loaded", "what did the billing query return?", "the invoice7.ts file before the last one", "how full was the disk?", "summarize what I just loaded"]) {
    const t = performance.now();
    const r = resolveReferences(q, ex);
    console.log(n, q, (performance.now() - t).toFixed(1), "ms", r.candidates.slice(0, 2).map((c) => c.id), r.ambiguous);
  }
}
