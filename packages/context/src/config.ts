import { readFileSync } from "node:fs";
import { ArefError, DEFAULT_FETCH_MAX_CHARS, HARD_FETCH_MAX_CHARS, formatIssues } from "@artifact-refs/schema";
import { z } from "zod";
import { RedactionRuleSchema } from "./redaction.js";

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.number().int().min(min).max(max);

/** Per-tool externalization policy: thresholds, exclusion, forced stashing. */
export const ToolPolicySchema = z
  .object({
    /** Never externalize this tool's results (they stay inline, redacted). */
    exclude: z.boolean().optional(),
    /** Always externalize this tool's results, whatever their size. */
    always: z.boolean().optional(),
    maxInlineChars: int(0).optional(),
    maxInlineLines: int(0).optional(),
    maxInlineTokens: int(0).optional(),
    /** TTL of the session reference to this tool's artifacts, in ms. */
    ttlMs: int(1).optional(),
    /** Artifact type recorded for this tool's results. */
    type: z.enum(["repo", "doc", "code", "log", "data", "plan", "result", "tool_output"]).optional(),
  })
  .strict();
export type ToolPolicy = z.infer<typeof ToolPolicySchema>;

export const ExternalizeConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Inline threshold in chars. Default = the budget's maxInlineArtifactChars (docs/ARCHITECTURE.md §references: 2,000). the docs/ARCHITECTURE.md §sidecar rule is 8,000. */
    maxInlineChars: int(0).default(2_000),
    /** Inline threshold in lines (docs/ARCHITECTURE.md §sidecar: 200). */
    maxInlineLines: int(0).default(200),
    /** Inline threshold in tokens (counted with the configured counter; a failed count stashes). */
    maxInlineTokens: int(0).default(1_000),
    /** Stash structured content (JSON, HTML, PDF text) even under the thresholds... */
    structured: z.boolean().default(true),
    /** ...once it is at least this long (a 40-char JSON answer is cheaper inline than its reference). */
    structuredMinChars: int(0).default(600),
    /** TTL of the session references the externalizer writes, in ms (absent = no expiry). */
    ttlMs: int(1).optional(),
    /** Tools whose results are never externalized. `artifacts_get` is always excluded. */
    excludeTools: z.array(z.string()).default([]),
    tools: z.record(z.string(), ToolPolicySchema).default({}),
    /** Chars kept by the fallback when storing fails or the deadline passed. */
    fallbackChars: int(0).default(2_000),
    /** Chars of the structural preview shown to the model next to the reference. */
    previewChars: int(0, 4_000).default(400),
    /** Cap of the whole model-facing reference (JSON); the preview is shortened to fit. */
    maxHintChars: int(200, 8_000).default(1_500),
  })
  .strict();

export const FetchConfigSchema = z
  .object({
    /** Cap of one artifacts_get answer (docs/ARCHITECTURE.md §references/§sidecar: 8,000). */
    maxChars: int(1, HARD_FETCH_MAX_CHARS).default(DEFAULT_FETCH_MAX_CHARS),
    /** The same artifact and selector fetched this many times → a narrower selector is suggested instead. */
    loopLimit: int(1).default(2),
    /** How many recent fetches the loop guard remembers. */
    loopWindow: int(1).default(32),
  })
  .strict();

/** The docs/ARCHITECTURE.md §executions ArtifactContext settings (env names ARTIFACT_CONTEXT_*). */
export const ExecutionsConfigSchema = z
  .object({
    maxResultSize: int(1).default(50_000),
    summarizeThreshold: int(0).default(10_000),
    recentLimit: int(0).default(3),
    /** TTL of an execution in context, in conversation turns. */
    ttlTurns: int(0).default(10),
    autoInject: z.boolean().default(true),
    maxContextItems: int(1).default(10),
    /** Executions kept per session (older ones are pruned from the log, not from the store). */
    maxExecutions: int(1).default(50),
  })
  .strict();

/** The docs/ARCHITECTURE.md §references bootstrap-file refs (OPENCLAW_ARTIFACT_REFS / …_THRESHOLD_CHARS). */
export const BootstrapConfigSchema = z
  .object({
    refs: z.boolean().default(false),
    thresholdChars: int(0).default(8_000),
  })
  .strict();

/** The docs/ARCHITECTURE.md §memory recall settings (memory.artifacts.enabled / maxItems / maxChars). */
export const RecallConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    maxItems: int(0).default(5),
    maxChars: int(0).default(2_000),
  })
  .strict();

export const RedactionConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    rules: z.array(RedactionRuleSchema).default([]),
    disable: z.array(z.string()).default([]),
  })
  .strict();

export const ContextConfigSchema = z
  .object({
    externalize: ExternalizeConfigSchema.default(ExternalizeConfigSchema.parse({})),
    fetch: FetchConfigSchema.default(FetchConfigSchema.parse({})),
    executions: ExecutionsConfigSchema.default(ExecutionsConfigSchema.parse({})),
    bootstrap: BootstrapConfigSchema.default(BootstrapConfigSchema.parse({})),
    recall: RecallConfigSchema.default(RecallConfigSchema.parse({})),
    redaction: RedactionConfigSchema.default(RedactionConfigSchema.parse({})),
  })
  .strict();
export type ContextConfig = z.infer<typeof ContextConfigSchema>;

type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
export type ContextConfigInput = DeepPartial<ContextConfig>;

/** Per-session overrides (docs/ARCHITECTURE.md §executions: auto-inject off, more context items, another summarize threshold). */
export const SessionOverridesSchema = z
  .object({
    autoInject: z.boolean().optional(),
    maxContextItems: int(1).optional(),
    summarizeThreshold: int(0).optional(),
    recentLimit: int(0).optional(),
    ttlTurns: int(0).optional(),
    maxInlineChars: int(0).optional(),
    fetchMaxChars: int(1, HARD_FETCH_MAX_CHARS).optional(),
    recallEnabled: z.boolean().optional(),
  })
  .strict();
export type SessionOverrides = z.infer<typeof SessionOverridesSchema>;

type EnvKind = "int" | "bool" | "list";
interface EnvVar {
  name: string;
  path: [keyof ContextConfig, string];
  kind: EnvKind;
}

/** Every environment variable the kit reads, with the config path it sets. */
export const CONTEXT_ENV_VARS: readonly EnvVar[] = [
  { name: "ARTIFACT_CONTEXT_MAX_RESULT_SIZE", path: ["executions", "maxResultSize"], kind: "int" },
  { name: "ARTIFACT_CONTEXT_SUMMARIZE_THRESHOLD", path: ["executions", "summarizeThreshold"], kind: "int" },
  { name: "ARTIFACT_CONTEXT_RECENT_LIMIT", path: ["executions", "recentLimit"], kind: "int" },
  { name: "ARTIFACT_CONTEXT_TTL", path: ["executions", "ttlTurns"], kind: "int" },
  { name: "ARTIFACT_CONTEXT_AUTO_INJECT", path: ["executions", "autoInject"], kind: "bool" },
  { name: "ARTIFACT_CONTEXT_MAX_ITEMS", path: ["executions", "maxContextItems"], kind: "int" },
  { name: "OPENCLAW_ARTIFACT_REFS", path: ["bootstrap", "refs"], kind: "bool" },
  { name: "OPENCLAW_ARTIFACT_REFS_THRESHOLD_CHARS", path: ["bootstrap", "thresholdChars"], kind: "int" },
  { name: "AREF_BOOTSTRAP_REFS", path: ["bootstrap", "refs"], kind: "bool" },
  { name: "AREF_BOOTSTRAP_THRESHOLD_CHARS", path: ["bootstrap", "thresholdChars"], kind: "int" },
  { name: "AREF_RECALL_ENABLED", path: ["recall", "enabled"], kind: "bool" },
  { name: "AREF_RECALL_MAX_ITEMS", path: ["recall", "maxItems"], kind: "int" },
  { name: "AREF_RECALL_MAX_CHARS", path: ["recall", "maxChars"], kind: "int" },
  { name: "AREF_EXTERNALIZE", path: ["externalize", "enabled"], kind: "bool" },
  { name: "AREF_MAX_INLINE_CHARS", path: ["externalize", "maxInlineChars"], kind: "int" },
  { name: "AREF_MAX_INLINE_LINES", path: ["externalize", "maxInlineLines"], kind: "int" },
  { name: "AREF_MAX_INLINE_TOKENS", path: ["externalize", "maxInlineTokens"], kind: "int" },
  { name: "AREF_EXCLUDE_TOOLS", path: ["externalize", "excludeTools"], kind: "list" },
  { name: "AREF_ARTIFACT_TTL_MS", path: ["externalize", "ttlMs"], kind: "int" },
  { name: "AREF_FETCH_MAX_CHARS", path: ["fetch", "maxChars"], kind: "int" },
  { name: "AREF_REDACT", path: ["redaction", "enabled"], kind: "bool" },
];

function envError(name: string, raw: string, what: string): ArefError {
  return new ArefError("CONFIG_INVALID", `environment variable ${name}=${JSON.stringify(raw)} is invalid: ${what}`, {
    hint: `set ${name} to ${what.replace(/^expected /, "")}, or unset it to use the default`,
    details: { variable: name, value: raw },
  });
}

function parseEnvValue(v: EnvVar, raw: string): unknown {
  const text = raw.trim();
  if (v.kind === "int") {
    if (!/^\d+$/.test(text)) throw envError(v.name, raw, "expected a non-negative integer");
    return Number(text);
  }
  if (v.kind === "bool") {
    if (/^(1|true|yes|on)$/i.test(text)) return true;
    if (/^(0|false|no|off)$/i.test(text)) return false;
    throw envError(v.name, raw, "expected true or false");
  }
  return text === ""
    ? []
    : text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
}

/** Reads the kit's variables from an environment (process.env by default). */
export function contextConfigFromEnv(env: Record<string, string | undefined> = process.env): ContextConfigInput {
  const out: Record<string, Record<string, unknown>> = {};
  for (const v of CONTEXT_ENV_VARS) {
    const raw = env[v.name];
    if (raw === undefined) continue;
    const [section, key] = v.path;
    const value = parseEnvValue(v, raw);
    (out[section] ??= {})[key] = value;
    // Validate this one value now, so the error names the variable.
    const sectionSchema = ContextConfigSchema.shape[section].unwrap() as unknown as z.ZodObject<
      Record<string, z.ZodType>
    >;
    const field = sectionSchema.shape[key];
    const checked = field?.safeParse(value);
    if (checked && !checked.success)
      throw envError(v.name, raw, `expected ${formatIssues(checked.error).replace(/^\(root\): /, "")}`);
  }
  return out as ContextConfigInput;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof RegExp);
}

function merge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

/** Validates a config object (code or file) with zod; CONFIG_INVALID names the path. */
export function parseContextConfig(input: unknown, source = "context config"): ContextConfig {
  const result = ContextConfigSchema.safeParse(input ?? {});
  if (!result.success) {
    throw new ArefError("CONFIG_INVALID", `invalid ${source}: ${formatIssues(result.error)}`, {
      hint: "see the Configuration section of @artifact-refs/context's README for every key and its type",
    });
  }
  return result.data;
}

export interface LoadContextConfigOptions {
  /** A JSON file with (part of) the config. */
  file?: string;
  /** Environment to read (default process.env); pass {} to ignore the environment. */
  env?: Record<string, string | undefined>;
  /** Values from code; they win over the environment, which wins over the file. */
  config?: ContextConfigInput;
}

/** Loads the kit's config: defaults < file < environment < code. Every value is validated. */
export function loadContextConfig(options: LoadContextConfigOptions = {}): ContextConfig {
  let fromFile: unknown = {};
  if (options.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.file, "utf8");
    } catch (error) {
      throw new ArefError(
        "CONFIG_INVALID",
        `cannot read context config file ${options.file}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    try {
      fromFile = JSON.parse(text);
    } catch (error) {
      throw new ArefError(
        "CONFIG_INVALID",
        `context config file ${options.file} is not valid JSON: ${(error as Error).message}`,
      );
    }
    parseContextConfig(fromFile, `context config file ${options.file}`);
  }
  const fromEnv = contextConfigFromEnv(options.env ?? process.env);
  if (options.config !== undefined) parseContextConfig(options.config, "context config (from code)");
  return parseContextConfig(merge(merge(fromFile, fromEnv), options.config ?? {}));
}

/** The config with one session's overrides applied. */
export function withSessionOverrides(config: ContextConfig, overrides: SessionOverrides | undefined): ContextConfig {
  if (overrides === undefined) return config;
  const result = SessionOverridesSchema.safeParse(overrides);
  if (!result.success)
    throw new ArefError("CONFIG_INVALID", `invalid session overrides: ${formatIssues(result.error)}`);
  const o = result.data;
  const pick = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
  return {
    ...config,
    externalize: { ...config.externalize, maxInlineChars: pick(o.maxInlineChars, config.externalize.maxInlineChars) },
    fetch: { ...config.fetch, maxChars: pick(o.fetchMaxChars, config.fetch.maxChars) },
    recall: { ...config.recall, enabled: pick(o.recallEnabled, config.recall.enabled) },
    executions: {
      ...config.executions,
      autoInject: pick(o.autoInject, config.executions.autoInject),
      maxContextItems: pick(o.maxContextItems, config.executions.maxContextItems),
      summarizeThreshold: pick(o.summarizeThreshold, config.executions.summarizeThreshold),
      recentLimit: pick(o.recentLimit, config.executions.recentLimit),
      ttlTurns: pick(o.ttlTurns, config.executions.ttlTurns),
    },
  };
}

export const DEFAULT_CONTEXT_CONFIG: ContextConfig = ContextConfigSchema.parse({});
