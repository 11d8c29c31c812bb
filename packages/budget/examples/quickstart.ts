import {
  checkBudget,
  checkPromptBudget,
  countTokens,
  createMetricsRecorder,
  getTokenizer,
  jsonlSink,
  loadBudgetConfig,
  memorySink,
} from "@artifact-refs/budget";

// Count tokens for the target model (o200k_base for gpt-4o); cached by content hash.
console.log(countTokens("The quick brown fox jumps over the lazy dog.", { model: "gpt-4o" })); // 10

// A megabyte of one character is split safely before counting: no crash, no stall.
console.log(countTokens("a".repeat(1_000_000))); // 125000

// One shared encoder per encoding; free it when done.
const tok = getTokenizer({ model: "gpt-4.1", impl: "gpt-tokenizer" });
console.log(tok.name, tok.count("hello world")); // gpt-tokenizer:o200k_base 2
tok.dispose();

// Budgets: the default budget table (docs/ARCHITECTURE.md §references), AREF_MAX_* environment overrides, every violation returned.
const config = loadBudgetConfig(process.env);
const check = checkBudget({ hotStateTokens: 1200, artifactIndexEntries: 25, promptTokens: null }, config);
for (const v of check.violations) console.log(`${v.budget}: ${v.message}`);
// maxHotStateTokens: hot state is 1,200 tokens, over the budget of 1,000 (maxHotStateTokens)
// maxArtifactIndexEntries: artifact index is 25 entries, over the budget of 20 (maxArtifactIndexEntries)
// maxPromptTokens: prompt tokens could not be measured: treated as over budget (fail closed)

// Or count a prompt's parts and check them in one call.
const report = checkPromptBudget(
  { system: "You are a coding agent.", messages: [{ role: "user", content: "Fix the bug." }] },
  { model: "gpt-4o" },
);
console.log(report.ok, report.measurements.promptTokens); // true 16

// Per-turn metrics (the prompt_metrics event, docs/ARCHITECTURE.md §references) to a JSONL file and memory, with regression warnings.
const memory = memorySink();
const recorder = createMetricsRecorder({
  sinks: [jsonlSink("/tmp/aref-metrics.jsonl"), memory],
  onWarning: (w) => console.log("warning:", w),
});
recorder.record({
  session: "s1",
  hs_tokens: 845,
  hs_bytes: 3310,
  hs_truncated: true,
  artifacts: 20,
  artifact_types: ["log", "code"],
  sys_chars: 5200,
  user_chars: 150,
  est_tokens: 4398,
  cuts: [
    {
      what: "index entry art:3f9b2a1c8e4d (build.log)",
      reason: "hot state over 1000 tokens",
      recover: "artifacts_get art:3f9b2a1c8e4d",
    },
  ],
});
// warning: hot state is 845 tokens, over the warning threshold of 800 (cap 1000)
// warning: artifact index has 20 entries, over the warning threshold of 15 (cap 20)
await recorder.close();
console.log(memory.events[0]?.budget_ok); // true
