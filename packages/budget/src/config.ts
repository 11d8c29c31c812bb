import { ArefError, formatIssues } from "@artifact-refs/schema";
import { z } from "zod";

/** Upper bounds that catch typos and unit mistakes (a budget of 8e9 tokens is not a budget). */
export const BUDGET_LIMITS = {
  maxHotStateTokens: 100_000,
  maxArtifactIndexEntries: 1_000,
  maxPromptTokens: 2_000_000,
  maxRagChunks: 1_000,
  maxInlineArtifactChars: 10_000_000,
} as const;

const bounded = (name: keyof typeof BUDGET_LIMITS, min: number) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(BUDGET_LIMITS[name], `${name} must be at most ${BUDGET_LIMITS[name].toLocaleString("en-US")}`);

const warn = (name: string) => z.number().int(`${name} must be a whole number`).min(0, `${name} must not be negative`);

/** The budget table of docs/ARCHITECTURE.md §references, plus the regression-warning thresholds. */
export const BudgetConfigSchema = z
  .object({
    maxHotStateTokens: bounded("maxHotStateTokens", 1),
    maxArtifactIndexEntries: bounded("maxArtifactIndexEntries", 0),
    maxPromptTokens: bounded("maxPromptTokens", 1),
    maxRagChunks: bounded("maxRagChunks", 0),
    maxInlineArtifactChars: bounded("maxInlineArtifactChars", 0),
    /** Warn when the hot state passes this many tokens (default 80% of the cap: 800). */
    warnHotStateTokens: warn("warnHotStateTokens"),
    /** Warn when the artifact index passes this many entries (default 75% of the cap: 15). */
    warnArtifactIndexEntries: warn("warnArtifactIndexEntries"),
    /** Warn when the prompt passes this many tokens (default 75% of the cap: 6,000). */
    warnPromptTokens: warn("warnPromptTokens"),
  })
  .strict()
  .refine((c) => c.maxHotStateTokens <= c.maxPromptTokens, {
    message: "maxHotStateTokens must not exceed maxPromptTokens (the hot state is part of every prompt)",
    path: ["maxHotStateTokens"],
  });
export type BudgetConfig = z.infer<typeof BudgetConfigSchema>;
export type BudgetConfigInput = Partial<BudgetConfig>;

/** The docs/ARCHITECTURE.md §references defaults. */
export const DEFAULT_BUDGET: Readonly<BudgetConfig> = Object.freeze({
  maxHotStateTokens: 1_000,
  maxArtifactIndexEntries: 20,
  maxPromptTokens: 8_000,
  maxRagChunks: 10,
  maxInlineArtifactChars: 2_000,
  warnHotStateTokens: 800,
  warnArtifactIndexEntries: 15,
  warnPromptTokens: 6_000,
});

/** Environment variables that override a budget. */
export const BUDGET_ENV = {
  AREF_MAX_HOT_STATE_TOKENS: "maxHotStateTokens",
  AREF_MAX_ARTIFACT_INDEX_ENTRIES: "maxArtifactIndexEntries",
  AREF_MAX_PROMPT_TOKENS: "maxPromptTokens",
  AREF_MAX_RAG_CHUNKS: "maxRagChunks",
  AREF_MAX_INLINE_ARTIFACT_CHARS: "maxInlineArtifactChars",
} as const satisfies Record<string, keyof typeof BUDGET_LIMITS>;

const WARN_OF = {
  maxHotStateTokens: ["warnHotStateTokens", 0.8],
  maxArtifactIndexEntries: ["warnArtifactIndexEntries", 0.75],
  maxPromptTokens: ["warnPromptTokens", 0.75],
} as const;

/**
 * A complete, validated budget config: `input` over the defaults. Warning thresholds not
 * given follow their cap (80% of the hot-state cap, 75% of the index and prompt caps).
 * Negative, fractional or absurd values are a CONFIG_INVALID error naming the field.
 */
export function resolveBudgetConfig(input: unknown = {}, source = "budget config"): BudgetConfig {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ArefError("CONFIG_INVALID", `invalid ${source}: expected an object of budgets`);
  }
  const given = input as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...DEFAULT_BUDGET, ...given };
  for (const [cap, [warnKey, ratio]] of Object.entries(WARN_OF)) {
    if (given[warnKey] === undefined && typeof merged[cap] === "number")
      merged[warnKey] = Math.floor((merged[cap] as number) * ratio);
  }
  const result = BudgetConfigSchema.safeParse(merged);
  if (!result.success) {
    throw new ArefError("CONFIG_INVALID", `invalid ${source}: ${formatIssues(result.error)}`, {
      hint: `budgets are whole numbers: ${Object.entries(BUDGET_LIMITS)
        .map(([k, v]) => `${k} ≤ ${v.toLocaleString("en-US")}`)
        .join(", ")}`,
      details: { issues: result.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) },
    });
  }
  return Object.freeze(result.data);
}

/**
 * The budget config in force: defaults, then `base`, then the AREF_MAX_* environment
 * variables. An invalid variable is a CONFIG_INVALID error naming it. Empty variables are unset.
 */
export function loadBudgetConfig(
  env: Record<string, string | undefined> = process.env,
  base: BudgetConfigInput = {},
): BudgetConfig {
  const fromEnv: Record<string, number> = {};
  for (const [variable, key] of Object.entries(BUDGET_ENV)) {
    const raw = env[variable];
    if (raw === undefined || raw === "") continue;
    if (!/^[0-9]+$/.test(raw.trim())) {
      throw new ArefError("CONFIG_INVALID", `${variable}=${JSON.stringify(raw)} is not a whole number`, {
        hint: `set ${variable} to an integer from 0 to ${BUDGET_LIMITS[key].toLocaleString("en-US")}, or unset it for the default (${DEFAULT_BUDGET[key]})`,
        details: { variable, value: raw },
      });
    }
    const value = Number(raw.trim());
    const min = key === "maxHotStateTokens" || key === "maxPromptTokens" ? 1 : 0;
    if (!Number.isSafeInteger(value) || value < min || value > BUDGET_LIMITS[key]) {
      throw new ArefError(
        "CONFIG_INVALID",
        `${variable}=${raw} is out of range (${min} to ${BUDGET_LIMITS[key].toLocaleString("en-US")})`,
        {
          hint: `set ${variable} to an integer from ${min} to ${BUDGET_LIMITS[key].toLocaleString("en-US")}, or unset it for the default (${DEFAULT_BUDGET[key]})`,
          details: { variable, value: raw },
        },
      );
    }
    fromEnv[key] = value;
  }
  const names =
    Object.keys(fromEnv).length > 0
      ? `budget config (with ${Object.keys(BUDGET_ENV)
          .filter((v) => env[v])
          .join(", ")})`
      : "budget config";
  return resolveBudgetConfig({ ...base, ...fromEnv }, names);
}
