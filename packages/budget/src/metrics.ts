import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import {
  ArefError,
  type BudgetViolation,
  type Cut,
  formatIssues,
  parseWith,
  type PromptMetrics,
  PromptMetricsSchema,
} from "@artifact-refs/schema";
import { z } from "zod";
import { type BudgetConfig, DEFAULT_BUDGET } from "./config.js";

/** The per-turn measurements a caller supplies; the recorder derives the rest. */
export interface PromptMetricsInput {
  session: string;
  run?: string;
  turn?: number;
  /** ISO time; default: now. */
  ts?: string;
  hs_tokens: number;
  hs_bytes: number;
  hs_truncated: boolean;
  /** Entries in the hot state's artifact index. */
  artifacts: number;
  artifact_types: readonly string[];
  sys_chars: number;
  user_chars: number;
  est_tokens: number;
  /** Bootstrap/workspace files given as references instead of inline. */
  ref_files?: number;
  violations?: readonly BudgetViolation[];
  /** What the turn cut to fit, and how to get it back. */
  cuts?: readonly Cut[];
  naive_tokens?: number;
}

/**
 * Regression warnings at the seed's thresholds: hot state over 800 tokens, index over 15
 * entries, prompt over 6,000 tokens, any budget violation (thresholds follow `config`).
 */
export function regressionWarnings(
  event: Pick<PromptMetrics, "hs_tokens" | "artifacts" | "est_tokens" | "budget_violations">,
  config: BudgetConfig = DEFAULT_BUDGET,
): string[] {
  const warnings: string[] = [];
  if (event.hs_tokens > config.warnHotStateTokens) {
    warnings.push(
      `hot state is ${event.hs_tokens} tokens, over the warning threshold of ${config.warnHotStateTokens} (cap ${config.maxHotStateTokens})`,
    );
  }
  if (event.artifacts > config.warnArtifactIndexEntries) {
    warnings.push(
      `artifact index has ${event.artifacts} entries, over the warning threshold of ${config.warnArtifactIndexEntries} (cap ${config.maxArtifactIndexEntries})`,
    );
  }
  if (event.est_tokens > config.warnPromptTokens) {
    warnings.push(
      `prompt is an estimated ${event.est_tokens} tokens, over the warning threshold of ${config.warnPromptTokens} (cap ${config.maxPromptTokens})`,
    );
  }
  if (event.budget_violations > 0) {
    warnings.push(`${event.budget_violations} budget violation${event.budget_violations === 1 ? "" : "s"} this turn`);
  }
  return warnings;
}

/** Builds and validates one `prompt_metrics` event (docs/ARCHITECTURE.md §references), with cuts, violations and warnings. */
export function buildPromptMetrics(
  input: PromptMetricsInput,
  config: BudgetConfig = DEFAULT_BUDGET,
  now: () => Date = () => new Date(),
): PromptMetrics {
  const violations = [...(input.violations ?? [])];
  const base = {
    type: "prompt_metrics" as const,
    ts: input.ts ?? now().toISOString(),
    session: input.session,
    ...(input.run === undefined ? {} : { run: input.run }),
    ...(input.turn === undefined ? {} : { turn: input.turn }),
    hs_tokens: input.hs_tokens,
    hs_bytes: input.hs_bytes,
    hs_truncated: input.hs_truncated,
    artifacts: input.artifacts,
    artifact_types: [...new Set(input.artifact_types)].sort(),
    sys_chars: input.sys_chars,
    user_chars: input.user_chars,
    est_tokens: input.est_tokens,
    ref_files: input.ref_files ?? 0,
    budget_violations: violations.length,
    budget_ok: violations.length === 0,
  };
  const event = {
    ...base,
    cuts: [...(input.cuts ?? [])],
    violations,
    warnings: regressionWarnings(base, config),
    ...(input.naive_tokens === undefined ? {} : { naive_tokens: input.naive_tokens }),
  };
  const result = PromptMetricsSchema.safeParse(event);
  if (!result.success) {
    throw new ArefError("INVALID_INPUT", `invalid prompt metrics: ${formatIssues(result.error)}`, {
      hint: "counts are non-negative integers; session is required",
    });
  }
  return result.data;
}

/** Where metrics events go. `write` may be async; the recorder's `flush()` waits for it. */
export interface MetricsSink {
  readonly name: string;
  write(event: PromptMetrics): void | Promise<void>;
  close?(): void | Promise<void>;
}

/**
 * Appends one JSON line per event to `path` (directories created 0700, file 0600).
 * Writes are synchronous appends, so an event is on disk when `record` returns.
 */
export function jsonlSink(path: string, opts: { mode?: number } = {}): MetricsSink {
  let ready = false;
  return {
    name: `jsonl:${path}`,
    write(event) {
      if (!ready) {
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        ready = true;
      }
      appendFileSync(path, `${JSON.stringify(event)}\n`, { mode: opts.mode ?? 0o600 });
    },
  };
}

export interface MemorySink extends MetricsSink {
  readonly events: PromptMetrics[];
  clear(): void;
}

/** Keeps events in memory (tests, dashboards, the server's recent-turns view). Bounded by `max` (oldest dropped). */
export function memorySink(opts: { max?: number } = {}): MemorySink {
  const events: PromptMetrics[] = [];
  const max = opts.max ?? Number.POSITIVE_INFINITY;
  return {
    name: "memory",
    events,
    write(event) {
      events.push(event);
      if (events.length > max) events.splice(0, events.length - max);
    },
    clear() {
      events.length = 0;
    },
  };
}

/** Calls `fn` with each event. */
export function callbackSink(fn: (event: PromptMetrics) => void | Promise<void>, name = "callback"): MetricsSink {
  return { name, write: fn };
}

export interface MetricsRecorderOptions {
  sinks?: MetricsSink[];
  config?: BudgetConfig;
  now?: () => Date;
  /** Called for each regression warning of each event (e.g. to log it). */
  onWarning?: (warning: string, event: PromptMetrics) => void;
  /**
   * Called when a sink fails. Default: `record` throws an IO_ERROR after every other sink
   * got the event (async failures are thrown by `flush`/`close`).
   */
  onSinkError?: (error: unknown, sink: MetricsSink, event: PromptMetrics) => void;
}

export interface MetricsRecorder {
  /** Builds, validates and writes one event to every sink; returns it. */
  record(input: PromptMetricsInput): PromptMetrics;
  /** Waits for async sinks; throws the first async sink failure not handled by onSinkError. */
  flush(): Promise<void>;
  /** Flushes, then closes every sink. */
  close(): Promise<void>;
  readonly recorded: number;
}

const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === "function", "must be a function");
const MetricsRecorderOptionsSchema = z.object({
  sinks: z
    .array(z.object({ name: z.string(), write: fn }).loose(), "must be an array of sinks ({ name, write(event) })")
    .optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  now: fn.optional(),
  onWarning: fn.optional(),
  onSinkError: fn.optional(),
});

export function createMetricsRecorder(opts: MetricsRecorderOptions = {}): MetricsRecorder {
  parseWith(MetricsRecorderOptionsSchema, opts ?? {}, "metrics recorder options");
  const sinks = [...(opts.sinks ?? [])];
  const config = opts.config ?? DEFAULT_BUDGET;
  const pending = new Set<Promise<void>>();
  const asyncFailures: unknown[] = [];
  let recorded = 0;
  let closed = false;

  const sinkFailure = (error: unknown, sink: MetricsSink) =>
    new ArefError("IO_ERROR", `metrics sink ${sink.name} failed: ${(error as Error)?.message ?? String(error)}`, {
      hint: "check the sink's destination (path, permissions, disk space)",
      cause: error,
    });

  return {
    get recorded() {
      return recorded;
    },
    record(input) {
      if (closed) throw new ArefError("INVALID_INPUT", "metrics recorder is closed", { hint: "create a new recorder" });
      const event = buildPromptMetrics(input, config, opts.now);
      recorded++;
      for (const warning of event.warnings ?? []) opts.onWarning?.(warning, event);
      const failures: ArefError[] = [];
      for (const sink of sinks) {
        try {
          const result = sink.write(event);
          if (result && typeof (result as Promise<void>).then === "function") {
            const p = (result as Promise<void>).then(
              () => undefined,
              (error: unknown) => {
                if (opts.onSinkError) opts.onSinkError(error, sink, event);
                else asyncFailures.push(sinkFailure(error, sink));
              },
            );
            pending.add(p);
            void p.finally(() => pending.delete(p));
          }
        } catch (error) {
          if (opts.onSinkError) opts.onSinkError(error, sink, event);
          else failures.push(sinkFailure(error, sink));
        }
      }
      if (failures.length > 0) throw failures[0];
      return event;
    },
    async flush() {
      await Promise.all([...pending]);
      if (asyncFailures.length > 0) throw asyncFailures.splice(0)[0];
    },
    async close() {
      if (closed) return;
      await this.flush();
      closed = true;
      for (const sink of sinks) await sink.close?.();
    },
  };
}

export interface MetricsFileReport {
  events: PromptMetrics[];
  /** Lines that are not valid prompt_metrics events (never silently dropped). */
  invalid: { line: number; message: string }[];
}

/** Reads a JSONL metrics file back, validating every line. */
export function readMetricsFile(path: string): MetricsFileReport {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ArefError(
      code === "ENOENT" ? "NOT_FOUND" : "IO_ERROR",
      `cannot read metrics file ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const events: PromptMetrics[] = [];
  const invalid: { line: number; message: string }[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      invalid.push({ line: i + 1, message: `not JSON: ${(error as Error).message}` });
      return;
    }
    const result = PromptMetricsSchema.safeParse(value);
    if (result.success) events.push(result.data);
    else invalid.push({ line: i + 1, message: formatIssues(result.error) });
  });
  return { events, invalid };
}
