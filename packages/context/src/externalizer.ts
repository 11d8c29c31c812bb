import { countTokens as budgetCountTokens } from "@artifact-refs/budget";
import type { ArtifactStore } from "@artifact-refs/store";
import {
  ArefError,
  ArtifactRefSchema,
  isArefError,
  parseSessionId,
  type ArtifactRef,
  type ArtifactType,
  type TranscriptEntry,
} from "@artifact-refs/schema";
import { z } from "zod";
import { parseContextConfig, type ContextConfig, type ContextConfigInput, type ToolPolicy } from "./config.js";
import { isInjected } from "./injected.js";
import { ARTIFACTS_GET_TOOL_NAME, modelHintFor, renderModelHint, type ModelHint } from "./model-hint.js";
import { countLines, serializePayload, utf8Length, type PayloadEncoding } from "./payload.js";
import { defaultPreview, type PreviewFunction } from "./preview.js";
import { Redactor, type RedactionResult } from "./redaction.js";

/** Says what a fallback cut, and why: never a silent truncation. */
export const LossReceiptSchema = z.object({
  schema: z.literal("artifact-refs.loss.v1"),
  reason: z.enum(["deadline", "store_failed"]),
  message: z.string(),
  error_code: z.string().optional(),
  tool: z.string().optional(),
  bytes_total: z.number().int().nonnegative(),
  bytes_kept: z.number().int().nonnegative(),
  bytes_dropped: z.number().int().nonnegative(),
  chars_total: z.number().int().nonnegative(),
  chars_kept: z.number().int().nonnegative(),
});
export type LossReceipt = z.infer<typeof LossReceiptSchema>;

/** A deadline: epoch milliseconds, a Date, or an AbortSignal (aborted = past the deadline). */
export type Deadline = number | Date | AbortSignal;

export interface ToolResultInput {
  session: string;
  tool: string;
  result: unknown;
  args?: Record<string, unknown>;
  callId?: string | null;
  mime?: string;
  label?: string;
  type?: ArtifactType;
  /** Injected context (recall, checkpoints, fetch answers): never stashed. */
  injected?: boolean;
  /** The turn's deadline: past it, nothing is stored (docs/ARCHITECTURE.md §oversized). */
  deadline?: Deadline;
}

export type ExternalizeAction = "inline" | "stashed" | "fallback";

export interface ExternalizedResult {
  action: ExternalizeAction;
  /** Why this action ("over 2000 chars (51200)", "structured application/json", "tool excluded", …). */
  reason: string;
  /** What the model sees as the tool message content. */
  content: string;
  payload: PayloadEncoding;
  /** Kinds of secrets replaced (in what was stored or kept inline). */
  redactions: string[];
  sizeBytes: number;
  artifactRef?: ArtifactRef;
  hint?: ModelHint;
  loss?: LossReceipt;
  /** The transcript line: for a stashed result it carries `details.artifactRef` and no payload. */
  entry: TranscriptEntry;
}

export interface ExternalizerOptions {
  store: ArtifactStore;
  config?: ContextConfig | ContextConfigInput;
  /** Redactor to use (default: built-in rules plus config.redaction). */
  redactor?: Redactor;
  /**
   * Token counter for the token threshold. Default: the budget package's counter (tiktoken
   * encoding of `model`, cl100k_base when unknown); false = no token threshold. A throw
   * counts as over the threshold (fail closed).
   */
  countTokens?: ((text: string) => number) | false;
  /** Model whose encoding the default counter uses. */
  model?: string;
  /** The budget's maxInlineArtifactChars: the char threshold never goes above it. */
  maxInlineArtifactChars?: number;
  /** Summary + structural preview (default: a local head/tail preview). */
  preview?: PreviewFunction;
  now?: () => number;
  /** Called after each result is stored (e.g. to add it to the dispatcher's artifact index). */
  onStash?: (stashed: StashedResult, input: ToolResultInput) => void;
}

export interface PreparedResult {
  input: ToolResultInput;
  /** The serialized, redacted text (what would be stored). */
  text: string;
  payload: PayloadEncoding;
  mime: string;
  injected: boolean;
  redactions: string[];
  decision: Decision;
}

export interface StashedResult {
  artifactRef: ArtifactRef;
  hint: ModelHint;
  /** The model-facing content (the hint as JSON). */
  content: string;
  /** What goes under the transcript entry's `details`. */
  details: Record<string, unknown>;
  /** False when the same bytes were already stored. */
  created: boolean;
}

export interface Decision {
  externalize: boolean;
  reason: string;
}

function deadlinePassed(deadline: Deadline | undefined, now: number): boolean {
  if (deadline === undefined) return false;
  if (deadline instanceof Date) return now >= deadline.getTime();
  if (typeof deadline === "number") return now >= deadline;
  return deadline.aborted;
}

function remainingMs(deadline: Deadline | undefined, now: number): number | undefined {
  if (deadline === undefined || (typeof deadline === "object" && !(deadline instanceof Date))) return undefined;
  return (deadline instanceof Date ? deadline.getTime() : deadline) - now;
}

export function buildRedactor(config: ContextConfig): Redactor | undefined {
  if (!config.redaction.enabled) return undefined;
  return new Redactor({ rules: config.redaction.rules, disable: config.redaction.disable });
}

/**
 * Decides per tool result: keep inline, or stash in the store and give the model a
 * reference `{artifact_reference, summary, preview, hint, size_bytes}`. Redacts before
 * anything is stored; past the deadline or on a store failure, truncates and says so.
 */
export class Externalizer {
  readonly store: ArtifactStore;
  readonly config: ContextConfig;
  readonly #redactor: Redactor | undefined;
  readonly #countTokens: ((text: string) => number) | undefined;
  readonly #maxInlineArtifactChars: number | undefined;
  readonly #preview: PreviewFunction;
  readonly #now: () => number;
  readonly #onStash: ExternalizerOptions["onStash"];

  constructor(options: ExternalizerOptions) {
    this.store = options.store;
    this.config = parseContextConfig(options.config ?? {});
    this.#redactor = options.redactor ?? buildRedactor(this.config);
    const model = options.model;
    this.#countTokens =
      options.countTokens === false
        ? undefined
        : (options.countTokens ?? ((text: string) => budgetCountTokens(text, model === undefined ? {} : { model })));
    this.#maxInlineArtifactChars = options.maxInlineArtifactChars;
    this.#preview = options.preview ?? defaultPreview;
    this.#now = options.now ?? Date.now;
    this.#onStash = options.onStash;
  }

  /** Redacts one text with this externalizer's rules (unchanged when redaction is off). */
  redactText(text: string): RedactionResult {
    return this.#redactor === undefined ? { text, kinds: [], count: 0 } : this.#redactor.redact(text);
  }

  /** Redacts every string inside a JSON value (tool arguments, records); the value is copied only where it changes. */
  redactValue(value: unknown): { value: unknown; kinds: string[] } {
    const kinds = new Set<string>();
    const walk = (v: unknown): unknown => {
      if (typeof v === "string") {
        const r = this.redactText(v);
        for (const k of r.kinds) kinds.add(k);
        return r.text;
      }
      if (Array.isArray(v)) {
        const out = v.map(walk);
        return out.every((x, i) => x === v[i]) ? v : out;
      }
      if (typeof v === "object" && v !== null) {
        let changed = false;
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) {
          out[k] = walk(x);
          if (out[k] !== x) changed = true;
        }
        return changed ? out : v;
      }
      return v;
    };
    const out = walk(value);
    return { value: out, kinds: [...kinds].sort() };
  }

  policyFor(tool: string): ToolPolicy {
    return this.config.externalize.tools[tool] ?? {};
  }

  /** Effective inline char threshold for a tool. */
  maxInlineChars(tool: string): number {
    const configured = this.policyFor(tool).maxInlineChars ?? this.config.externalize.maxInlineChars;
    return this.#maxInlineArtifactChars === undefined ? configured : Math.min(configured, this.#maxInlineArtifactChars);
  }

  /** Whether a (serialized, redacted) result would be stashed, and why. */
  decide(tool: string, text: string, mime: string, structured: boolean, injected = false): Decision {
    const cfg = this.config.externalize;
    const policy = this.policyFor(tool);
    if (injected || isInjected(text)) return { externalize: false, reason: "injected context is never stashed" };
    if (tool === ARTIFACTS_GET_TOOL_NAME)
      return { externalize: false, reason: `${ARTIFACTS_GET_TOOL_NAME} results are never externalized` };
    if (!cfg.enabled) return { externalize: false, reason: "externalization disabled" };
    if (policy.exclude || cfg.excludeTools.includes(tool))
      return { externalize: false, reason: `tool ${tool} is excluded` };
    if (text.length === 0) return { externalize: false, reason: "empty result" };
    if (policy.always) return { externalize: true, reason: `tool ${tool} is always externalized` };
    const maxChars = this.maxInlineChars(tool);
    if (text.length > maxChars) return { externalize: true, reason: `over ${maxChars} chars (${text.length})` };
    const maxLines = policy.maxInlineLines ?? cfg.maxInlineLines;
    const lines = countLines(text);
    if (lines > maxLines) return { externalize: true, reason: `over ${maxLines} lines (${lines})` };
    if (structured && cfg.structured && text.length >= cfg.structuredMinChars) {
      return { externalize: true, reason: `structured ${mime} (${text.length} chars)` };
    }
    const maxTokens = policy.maxInlineTokens ?? cfg.maxInlineTokens;
    if (this.#countTokens !== undefined) {
      let tokens: number;
      try {
        tokens = this.#countTokens(text);
      } catch {
        return { externalize: true, reason: "token count failed (fail closed)" };
      }
      if (!Number.isFinite(tokens)) return { externalize: true, reason: "token count failed (fail closed)" };
      if (tokens > maxTokens) return { externalize: true, reason: `over ${maxTokens} tokens (${tokens})` };
    }
    return { externalize: false, reason: "under the inline thresholds" };
  }

  /** Serializes and redacts a tool result and decides what to do with it (no I/O). */
  prepare(input: ToolResultInput): PreparedResult {
    parseSessionId(input.session);
    if (typeof input.tool !== "string" || input.tool.length === 0) {
      throw new ArefError("INVALID_INPUT", "tool result needs a tool name", { hint: "pass {tool: 'name'}" });
    }
    const serialized = serializePayload(input.result, input.mime);
    const injected = input.injected === true || isInjected(serialized.text);
    // Redaction always runs, injected context included (issue 17 #4).
    const redacted =
      this.#redactor === undefined
        ? { text: serialized.text, kinds: [] as string[] }
        : this.#redactor.redact(serialized.text);
    const decision = this.decide(input.tool, redacted.text, serialized.mime, serialized.structured, injected);
    return {
      input,
      text: redacted.text,
      payload: serialized.payload,
      mime: serialized.mime,
      injected,
      redactions: redacted.kinds,
      decision,
    };
  }

  /**
   * Stores a prepared result and returns its reference, the model hint and the transcript
   * details. Throws on a store failure (the migration relies on that: it never truncates).
   */
  async stash(prepared: PreparedResult): Promise<StashedResult> {
    const { input, text, mime, payload, redactions } = prepared;
    const policy = this.policyFor(input.tool);
    const preview = this.#preview(text, {
      mime,
      maxChars: this.config.externalize.previewChars,
      ...(input.label ? { label: input.label } : {}),
    });
    const ttlMs = policy.ttlMs ?? this.config.externalize.ttlMs;
    const putting = this.store.put(text, {
      type: input.type ?? policy.type ?? "tool_output",
      mime,
      producer: "executor",
      tool: {
        name: input.tool,
        ...(input.args ? { args: this.redactValue(input.args).value as Record<string, unknown> } : {}),
      },
      summary: preview.summary,
      session: input.session,
      ...(input.label ? { label: input.label.slice(0, 300) } : {}),
      ...(redactions.length > 0 ? { redactions } : {}),
      ...(ttlMs === undefined ? {} : { ttlMs }),
    });
    const remaining = remainingMs(input.deadline, this.#now());
    const put = remaining === undefined ? await putting : await raceDeadline(putting, remaining);
    const artifactRef = ArtifactRefSchema.parse({
      artifact_id: put.id,
      handle: put.handle,
      short_ref: put.shortRef,
      size_bytes: put.record.size_bytes,
      mime,
      summary: cutChars(preview.summary, 300),
      payload,
    });
    const lines = countLines(text);
    // Keep what the model sees under maxHintChars: shorten the preview (JSON escaping can double it).
    let shownPreview = preview.preview;
    const hintFor = (p: string) =>
      modelHintFor(artifactRef, {
        preview: p,
        lines,
        label: input.label,
        redactions,
        fetchMaxChars: this.config.fetch.maxChars,
      });
    let hint = hintFor(shownPreview);
    while (shownPreview.length > 0 && renderModelHint(hint).length > this.config.externalize.maxHintChars) {
      shownPreview = shownPreview.length < 40 ? "" : cutChars(shownPreview, Math.floor(shownPreview.length * 0.7));
      hint = hintFor(shownPreview);
    }
    const details: Record<string, unknown> = {
      artifactRef,
      ...(shownPreview ? { preview: shownPreview } : {}),
      lines,
      ...(input.label ? { label: input.label } : {}),
      ...(redactions.length > 0 ? { redactions } : {}),
    };
    const stashed: StashedResult = { artifactRef, hint, content: renderModelHint(hint), details, created: put.created };
    this.#onStash?.(stashed, input);
    return stashed;
  }

  /** Processes one tool result. Never throws for a store failure: it falls back and says so. */
  async externalize(input: ToolResultInput): Promise<ExternalizedResult> {
    const prepared = this.prepare(input);
    const { text, payload, redactions, injected, decision } = prepared;
    const base = {
      role: "tool" as const,
      tool_name: input.tool,
      ...(input.callId === undefined ? {} : { tool_call_id: input.callId }),
    };
    const sizeBytes = utf8Length(text);
    if (!decision.externalize) {
      return {
        action: "inline",
        reason: decision.reason,
        content: text,
        payload,
        redactions,
        sizeBytes,
        entry: {
          type: "message",
          ...base,
          content: text,
          ...(injected || redactions.length > 0 || payload === "json"
            ? {
                details: {
                  ...(injected ? { injected: true } : {}),
                  ...(redactions.length > 0 ? { redactions } : {}),
                  ...(payload === "json" ? { payload: "json" } : {}),
                },
              }
            : {}),
        },
      };
    }
    if (deadlinePassed(input.deadline, this.#now())) {
      return this.#fallback(
        input,
        text,
        payload,
        redactions,
        base,
        "deadline",
        new ArefError("DEADLINE_EXCEEDED", "the turn is past its deadline, so the output was not stored"),
      );
    }
    let stashed: StashedResult;
    try {
      stashed = await this.stash(prepared);
    } catch (error) {
      const reason = hasDeadlineCode(error) ? "deadline" : "store_failed";
      return this.#fallback(input, text, payload, redactions, base, reason, error);
    }
    return {
      action: "stashed",
      reason: decision.reason,
      content: stashed.content,
      payload,
      redactions,
      sizeBytes,
      artifactRef: stashed.artifactRef,
      hint: stashed.hint,
      entry: { type: "message", ...base, content: "", details: stashed.details },
    };
  }

  #fallback(
    input: ToolResultInput,
    text: string,
    payload: PayloadEncoding,
    redactions: string[],
    base: { role: "tool"; tool_name?: string; tool_call_id?: string | null },
    reason: LossReceipt["reason"],
    error: unknown,
  ): ExternalizedResult {
    const keepChars = Math.min(text.length, this.config.externalize.fallbackChars);
    let kept = text.slice(0, keepChars);
    // Do not cut a surrogate pair in half.
    if (kept.length > 0 && /[\uD800-\uDBFF]$/.test(kept)) kept = kept.slice(0, -1);
    const bytesTotal = utf8Length(text);
    const bytesKept = utf8Length(kept);
    const why =
      reason === "deadline"
        ? "the turn passed its deadline, so the output was not stored"
        : `storing the output failed (${isArefError(error) ? `${error.code}: ` : ""}${(error as Error)?.message ?? String(error)})`;
    const loss = LossReceiptSchema.parse({
      schema: "artifact-refs.loss.v1",
      reason,
      message: why,
      ...(isArefError(error) ? { error_code: error.code } : {}),
      tool: input.tool,
      bytes_total: bytesTotal,
      bytes_kept: bytesKept,
      bytes_dropped: bytesTotal - bytesKept,
      chars_total: text.length,
      chars_kept: kept.length,
    });
    const notice = `[aref: output truncated: kept the first ${loss.chars_kept} of ${loss.chars_total} chars, ${loss.bytes_dropped} bytes dropped because ${why}; the rest cannot be fetched]`;
    const content = `${kept}\n${notice}`;
    return {
      action: "fallback",
      reason: why,
      content,
      payload,
      redactions,
      sizeBytes: bytesTotal,
      loss,
      entry: {
        type: "message",
        ...base,
        content,
        details: { loss, ...(redactions.length > 0 ? { redactions } : {}) },
      },
    };
  }
}

/** At most `max` UTF-16 units, never splitting a surrogate pair. */
function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

function hasDeadlineCode(error: unknown): boolean {
  return isArefError(error) && error.code === "DEADLINE_EXCEEDED";
}

async function raceDeadline<T>(work: Promise<T>, remaining: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ArefError("DEADLINE_EXCEEDED", "storing the output did not finish before the turn's deadline")),
      Math.max(0, remaining),
    );
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}
