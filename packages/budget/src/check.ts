import { ArefError, type BudgetViolation, parseWith } from "@artifact-refs/schema";
import { z } from "zod";
import { type BudgetConfig, DEFAULT_BUDGET } from "./config.js";
import { type CountOptions, tryCountTokens } from "./count.js";
import { resolveEncoding } from "./encodings.js";

/** What a turn measured. A key that is present but null (or not a non-negative number) could not be measured. */
export interface BudgetMeasurements {
  hotStateTokens?: number | null;
  artifactIndexEntries?: number | null;
  promptTokens?: number | null;
  ragChunks?: number | null;
  /** Characters of the largest artifact inlined in the prompt. */
  inlineArtifactChars?: number | null;
  /** Why a measurement is missing (e.g. the tokenizer's error), shown in its violation. */
  reasons?: Partial<Record<MeasuredKey, string>>;
}
export type MeasuredKey = Exclude<keyof BudgetMeasurements, "reasons">;

export interface BudgetCheck {
  ok: boolean;
  /** Every violation, never only the first. */
  violations: BudgetViolation[];
  /** The measurements that were checked. */
  checked: MeasuredKey[];
}

const LIMIT_OF: Record<MeasuredKey, { budget: keyof BudgetConfig; what: string; unit: string }> = {
  hotStateTokens: { budget: "maxHotStateTokens", what: "hot state", unit: "tokens" },
  artifactIndexEntries: { budget: "maxArtifactIndexEntries", what: "artifact index", unit: "entries" },
  promptTokens: { budget: "maxPromptTokens", what: "prompt", unit: "tokens" },
  ragChunks: { budget: "maxRagChunks", what: "RAG chunks", unit: "chunks" },
  inlineArtifactChars: { budget: "maxInlineArtifactChars", what: "largest inline artifact", unit: "chars" },
};

/**
 * Checks every measurement against its budget and returns every violation. Fail closed: a
 * measurement that is present but could not be made (null, NaN, negative) is a violation.
 */
export function checkBudget(measurements: BudgetMeasurements, config: BudgetConfig = DEFAULT_BUDGET): BudgetCheck {
  if (measurements === null || typeof measurements !== "object" || Array.isArray(measurements)) {
    throw new ArefError(
      "INVALID_INPUT",
      `checkBudget needs the measurements as an object, got ${measurements === null ? "null" : Array.isArray(measurements) ? "an array" : typeof measurements}`,
      {
        hint: "e.g. checkBudget({ hotStateTokens: 812, promptTokens: 6400 })",
      },
    );
  }
  const violations: BudgetViolation[] = [];
  const checked: MeasuredKey[] = [];
  for (const key of Object.keys(LIMIT_OF) as MeasuredKey[]) {
    if (!(key in measurements) || measurements[key] === undefined) continue;
    checked.push(key);
    const { budget, what, unit } = LIMIT_OF[key];
    const limit = config[budget];
    const value = measurements[key];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      const reason = measurements.reasons?.[key];
      violations.push({
        budget,
        limit,
        actual: null,
        message: `${what} ${unit} could not be measured${reason ? ` (${reason})` : ""}: treated as over budget (fail closed)`,
      });
    } else if (value > limit) {
      violations.push({
        budget,
        limit,
        actual: value,
        message: `${what} is ${value.toLocaleString("en-US")} ${unit}, over the budget of ${limit.toLocaleString("en-US")} (${budget})`,
      });
    }
  }
  return { ok: violations.length === 0, violations, checked };
}

/** Overhead of OpenAI's chat format: 3 tokens per message and 3 to prime the reply. */
export const MESSAGE_OVERHEAD_TOKENS = 3;
export const REPLY_PRIMING_TOKENS = 3;

const MessageSchema = z.object({ role: z.string(), content: z.string() }).passthrough();

/** A prompt to check: either the whole text, or its parts. */
export const PromptBudgetInputSchema = z
  .object({
    /** The whole prompt as one text. */
    prompt: z.string().optional(),
    system: z.string().optional(),
    /** The hot state, as its JSON text or as an object. */
    hot_state: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    messages: z.array(MessageSchema).optional(),
    rag_chunks: z.array(z.string()).optional(),
    /** Artifacts inlined in the prompt (their text). */
    inline_artifacts: z.array(z.string()).optional(),
    /** Entries in the hot state's artifact index, when the hot state is not given as an object. */
    artifact_index_entries: z.number().int().nonnegative().optional(),
  })
  .strict();
export type PromptBudgetInput = z.infer<typeof PromptBudgetInputSchema>;

export interface PromptBudgetReport extends BudgetCheck {
  measurements: BudgetMeasurements;
  /** Token counts of each part (null when it could not be counted). */
  parts: Record<string, number | null>;
  /** Counting errors (the budget failed closed on each). */
  errors: string[];
  encoding: string;
}

/**
 * Measures a prompt (counting every part) and checks it. Parts that cannot be counted make
 * the prompt unmeasurable, which is a violation. The prompt estimate is the sum of its
 * parts plus the chat-format overhead per message.
 */
export function checkPromptBudget(
  input: PromptBudgetInput,
  opts: CountOptions & { config?: BudgetConfig } = {},
): PromptBudgetReport {
  const parsed = parseWith(PromptBudgetInputSchema, input, "prompt budget input");
  const config = opts.config ?? DEFAULT_BUDGET;
  const parts: Record<string, number | null> = {};
  const errors: string[] = [];
  let encoding: string;
  const count = (label: string, text: string): number | null => {
    const result = tryCountTokens(text, opts);
    if (result.ok) {
      parts[label] = (parts[label] ?? 0) + result.tokens;
      return result.tokens;
    }
    parts[label] = null;
    errors.push(`${label}: ${result.error.message}`);
    return null;
  };
  const m: BudgetMeasurements = { reasons: {} };
  let total: number | null = 0;
  const add = (n: number | null) => {
    total = total === null || n === null ? null : total + n;
  };

  if (parsed.prompt !== undefined) add(count("prompt", parsed.prompt));
  if (parsed.system !== undefined) add(count("system", parsed.system));
  if (parsed.hot_state !== undefined) {
    const text = typeof parsed.hot_state === "string" ? parsed.hot_state : JSON.stringify(parsed.hot_state);
    const n = count("hot_state", text);
    m.hotStateTokens = n;
    if (n === null) m.reasons!.hotStateTokens = errors.at(-1);
    add(n);
    if (typeof parsed.hot_state === "object" && Array.isArray(parsed.hot_state.artifact_index)) {
      m.artifactIndexEntries = parsed.hot_state.artifact_index.length;
    }
  }
  if (parsed.artifact_index_entries !== undefined) m.artifactIndexEntries = parsed.artifact_index_entries;
  for (const chunk of parsed.rag_chunks ?? []) add(count("rag_chunks", chunk));
  if (parsed.rag_chunks !== undefined) m.ragChunks = parsed.rag_chunks.length;
  let largestInline = 0;
  for (const artifact of parsed.inline_artifacts ?? []) {
    add(count("inline_artifacts", artifact));
    largestInline = Math.max(largestInline, artifact.length);
  }
  if (parsed.inline_artifacts !== undefined) m.inlineArtifactChars = largestInline;
  if (parsed.messages !== undefined) {
    for (const message of parsed.messages) add(count("messages", message.content));
    add(parsed.messages.length * MESSAGE_OVERHEAD_TOKENS + (parsed.messages.length > 0 ? REPLY_PRIMING_TOKENS : 0));
  }
  m.promptTokens = total;
  if (total === null) m.reasons!.promptTokens = errors.join("; ");
  try {
    encoding = opts.tokenizer?.encoding ?? resolveEncoding(opts).encoding;
  } catch {
    encoding = "unknown"; // strict mode with an unknown model: every count above already failed closed
  }
  const check = checkBudget(m, config);
  return { ...check, measurements: m, parts, errors, encoding };
}
