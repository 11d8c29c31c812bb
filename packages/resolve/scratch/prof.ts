import { resolveReferences } from "../src/index.js";
import { executions } from "../bench/fixtures.js";
const ex = executions(10000);
resolveReferences("x y", ex);
for (const q of ["how full was the disk?", "the invoice7.ts file before the last one", "summarize what I just loaded"]) {
  resolveReferences(q, ex);
  const t = performance.now();
  for (let i = 0; i < 3; i++) resolveReferences(q, ex);
  console.log(q, ((performance.now() - t) / 3).toFixed(1));
}
