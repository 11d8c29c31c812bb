// Token counting on the tool outputs of ../shared/data/trajectories: tiktoken vs
// gpt-tokenizer vs js-tiktoken in one run, identical counts checked; the safe split's
// overhead over the raw libraries; pathological input; the cost of a cache hit.
import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { clearCountCache, countTokens, getTokenizer, TOKENIZER_IMPLS } from "@artifact-refs/budget";
import { machine } from "@artifact-refs/tooling/bench/harness";

const require = createRequire(import.meta.url);

/**
 * Cases that take up to seconds each: run them interleaved (a, b, c, a, b, c, …) `runs`
 * times after one warm-up round and report the median, with ratios to the baseline
 * (tinybench's minimum of 64 iterations would take too long here).
 */
function timed(title: string, cases: Record<string, () => void>, baseline: string, runs: number, chars?: number): void {
  const names = Object.keys(cases);
  for (const name of names) cases[name]!();
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < runs; r++) {
    for (const name of names) {
      const t0 = performance.now();
      cases[name]!();
      samples[name]!.push(performance.now() - t0);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const base = median(samples[baseline]!);
  const lines = [
    `\n### ${title}\n`,
    `| case | median ms | ${chars ? "MB/s | " : ""}speed vs baseline |`,
    `|---|---:|${chars ? "---:|" : ""}---:|`,
  ];
  for (const name of names) {
    const m = median(samples[name]!);
    lines.push(
      `| ${name} | ${m.toFixed(m < 1 ? 3 : 1)} | ${chars ? `${(chars / 1e6 / (m / 1000)).toFixed(1)} | ` : ""}${(base / m).toFixed(2)}× |`,
    );
  }
  console.log(lines.join("\n"));
}
const { get_encoding } = require("tiktoken") as typeof import("tiktoken");
const dir = fileURLToPath(new URL("../../../../shared/data/trajectories/", import.meta.url));
const outputs: string[] = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".jsonl"))
  .sort()) {
  for (const line of readFileSync(`${dir}${file}`, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const m = JSON.parse(line) as { role: string; content: string };
    if (m.role === "tool") outputs.push(m.content);
  }
}
const chars = outputs.reduce((n, t) => n + t.length, 0);
console.log(`machine: ${machine()}`);
console.log(
  `corpus: ${outputs.length} tool outputs, ${chars.toLocaleString("en-US")} chars (largest ${Math.max(...outputs.map((t) => t.length)).toLocaleString("en-US")})`,
);

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
  console.log(
    `\n${encoding}: ${total.toLocaleString("en-US")} tokens; counts identical across tiktoken (raw), ${TOKENIZER_IMPLS.join(", ")}: ${mismatches === 0 ? "yes" : `NO (${mismatches} mismatches)`}`,
  );

  const cases: Record<string, () => void> = {};
  for (const tok of toks)
    cases[`${tok.impl} (safe, uncached)`] = () => {
      for (const t of outputs) tok.countUncached(t);
    };
  cases["tiktoken raw encode_ordinary"] = () => {
    for (const t of outputs) reference.encode_ordinary(t);
  };
  timed(
    `count all ${outputs.length} tool outputs, ${(chars / 1e6).toFixed(2)}M chars (${encoding})`,
    cases,
    "tiktoken (safe, uncached)",
    5,
    chars,
  );
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
  timed(
    "1 MB of one repeated character vs 1 MB of tool output (cl100k_base, safe split)",
    cases,
    "tiktoken: 1 MB prose",
    5,
  );
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
    timed(
      `cache hit vs count, ${name}`,
      {
        "countTokens, cache hit": () => void countTokens(text),
        "count, tiktoken (uncached)": () => void countTokens(text, { cache: false }),
        "count, gpt-tokenizer (uncached)": () => void countTokens(text, { cache: false, impl: "gpt-tokenizer" }),
      },
      "count, tiktoken (uncached)",
      text.length > 100_000 ? 7 : 41,
    );
  }
}
