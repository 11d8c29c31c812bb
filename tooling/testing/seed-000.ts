// The docs/ARCHITECTURE.md §references per-turn prompt_metrics example ("Metrics & Observability"), as written there: the
// schema tests parse it and the budget tests build it.

/** The measured fields of the example: hot state, artifacts, prompt size. */
export const SEED_000_MEASURES = {
  hs_tokens: 45,
  hs_bytes: 182,
  hs_truncated: false,
  artifacts: 2,
  artifact_types: ["code", "doc"],
  sys_chars: 5200,
  user_chars: 150,
  est_tokens: 1398,
  ref_files: 1,
};

/** The whole example event. */
export const SEED_000_PROMPT_METRICS = {
  type: "prompt_metrics" as const,
  session: "session-id",
  run: "run-id",
  ...SEED_000_MEASURES,
  budget_violations: 0,
  budget_ok: true,
};
