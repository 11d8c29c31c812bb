// Token counting on the tool outputs of ../shared/data/trajectories: tiktoken vs
// gpt-tokenizer vs js-tiktoken in one run, identical counts checked; the safe split's
// overhead over the raw libraries; pathological input; the cost of a cache hit.
import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { clearCountCache, countTokens, getTokenizer, TOKENIZER_IMPLS } from "@artifact-refs/budget";
import { compare, machine } from "@artifact-refs/tooling/bench/harness";

const require = createRequire(import.meta.url);
const { get_encoding } = require("tiktoken") as typeof import("tiktoken");
const dir = fileURLToPath(new URL("../../../../shared/data/trajectories/", import.meta.url));
const outputs: string[] = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort()) {
  for (const line of readFileSync(`${dir}${file}`, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const m = JSON.parse(line) as { role: string; content: string };
    if (m.role === "tool") outputs.push(m.content);
  }
}
const chars = outputs.reduce((n, t) => n + t.length, 0);
console.log(`machine: ${machine()}`);
console.log(`corpus: ${outputs.length} tool outputs, ${chars.toLocaleString("en-US")} chars (largest ${Math.max(...outputs.map((t) => t.length)).toLocaleString("en-US")})`);

for (const encoding of ["cl100k_base", "o200k_base"] as const) {
  // Identical counts: every output, every implementation, against raw tiktoken.
  const reference = get_encoding(encoding);
  const toks = TOKENIZER_IMPLS.map((impl) => getTokenizer({ impl, encoding }));
  let total = 0;
  let mismatches = 0;
  for (const text of outputs) {
    const expected = reference.encode_ordinary(text).length;
    total += expected;
    for (const tok of toks) if (tok.countUncached(text) !== expected) mismatches++;
  }
  console.log(`\n${encoding}: ${total.toLocaleString("en-US")} tokens; counts identical across tiktoken (raw), ${TOKENIZER_IMPLS.join(", ")}: ${mismatches === 0 ? "yes" : `NO (${mismatches} mismatches)`}`);

  const cases: Record<string, () => void> = {};
  for (const tok of toks) cases[`${tok.impl} (safe, uncached)`] = () => void outputs.forEach((t) => tok.countUncached(t));
  cases["tiktoken raw encode_ordinary"] = () => void outputs.forEach((t) => reference.encode_ordinary(t).length);
  await compare({ title: `count all tool outputs (${encoding})`, cases, baseline: "tiktoken (safe, uncached)", time: 4000, warmupTime: 500 });
  for (const tok of toks) tok.dispose();
  reference.free();
}

// Pathological input vs prose, same size (1 MB each), through the safe path.
{
  const prose = outputs.join("\n").slice(0, 1_000_000);
  const cases: Record<string, () => void> = {};
  for (const impl of TOKENIZER_IMPLS) {
    const tok = getTokenizer({ impl });
    cases[`${impl}: 1 MB prose`] = () => void tok.countUncached(prose);
    cases[`${impl}: 1 MB of "a"`] = () => void tok.countUncached("a".repeat(1_000_000));
    cases[`${impl}: 1 MB of spaces`] = () => void tok.countUncached(" ".repeat(1_000_000));
  }
  await compare({ title: "1 MB of one repeated character vs 1 MB of tool output (cl100k_base, safe split)", cases, baseline: "tiktoken: 1 MB prose", time: 3000 });
}

// Cost of a cache hit: hashing the content vs counting it.
{
  const largest = outputs.reduce((a, b) => (b.length > a.length ? b : a));
  const typical = outputs.filter((t) => t.length > 2000 && t.length < 10000)[0]!;
  for (const [name, text] of [
    [`largest output (${largest.length.toLocaleString("en-US")} chars)`, largest],
    [`typical output (${typical.length.toLocaleString("en-US")} chars)`, typical],
  ] as const) {
    clearCountCache();
    countTokens(text);
    await compare({
      title: `cache hit vs count, ${name}`,
      cases: {
        "countTokens, cache hit": () => void countTokens(text),
        "count, tiktoken (uncached)": () => void countTokens(text, { cache: false }),
        "count, gpt-tokenizer (uncached)": () => void countTokens(text, { cache: false, impl: "gpt-tokenizer" }),
      },
      baseline: "count, tiktoken (uncached)",
      time: 2000,
    });
  }
}
