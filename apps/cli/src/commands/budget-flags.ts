/** Kept apart from budget-check.ts so `aref --help` does not load @artifact-refs/budget. */
/** Every budget as a flag: [flag, environment variable it overrides, what it caps]. */
export const BUDGET_FLAGS = [
  ["max-hot-state-tokens", "AREF_MAX_HOT_STATE_TOKENS", "hot state tokens (default 1000)"],
  ["max-artifact-index-entries", "AREF_MAX_ARTIFACT_INDEX_ENTRIES", "artifact index entries (default 20)"],
  ["max-prompt-tokens", "AREF_MAX_PROMPT_TOKENS", "prompt tokens (default 8000)"],
  ["max-rag-chunks", "AREF_MAX_RAG_CHUNKS", "RAG chunks (default 10)"],
  ["max-inline-artifact-chars", "AREF_MAX_INLINE_ARTIFACT_CHARS", "inline artifact chars (default 2000)"],
] as const;
